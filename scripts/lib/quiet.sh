# Waiting for a quiet machine before a measurement (others share this machine); source it
# from the repository root. QUIET_WAIT (seconds, default 300) bounds the wait; QUIET_PCT
# (default 20) is the % of one CPU below which a second counts as quiet.

# Percent of one CPU the whole machine was busy during the last second.
machine_busy() {
    local x a b c d e f g b1 b2
    read -r x a b c d e f g _ </proc/stat; b1=$((a + b + c + f + g))
    sleep 1
    read -r x a b c d e f g _ </proc/stat; b2=$((a + b + c + f + g))
    echo $(((b2 - b1) * 100 / $(getconf CLK_TCK)))
}

# Waits for two quiet seconds in a row; says so when it waited long or gave up (the run's
# own CPU figures then tell how disturbed it was).
wait_quiet() {
    local quiet=0 busy=0 waited
    for waited in $(seq "${QUIET_WAIT:-300}"); do
        busy="$(machine_busy)"
        if [ "$busy" -lt "${QUIET_PCT:-20}" ]; then quiet=$((quiet + 1)); else quiet=0; fi
        if [ "$quiet" -ge 2 ]; then
            [ "$waited" -le 5 ] || echo "NOTE waited ${waited} s for a quiet machine"
            return 0
        fi
    done
    echo "NOTE the machine stayed busy (last second: ${busy}% of a CPU); measuring anyway"
}
