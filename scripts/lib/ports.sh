# Loopback port helpers the benchmark and check scripts share; source it from the
# repository root.

# Prints a TCP port on 127.0.0.1 that is free now.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# Waits until something accepts on 127.0.0.1:$1; gives up after 10 s.
wait_port() {
    for _ in $(seq 100); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$1)))" && return 0
        sleep 0.1
    done
    echo "server on port $1 did not start" >&2; return 1
}
