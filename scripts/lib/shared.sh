# The project's shared folder beside the checkout (../shared: the load generator wsload and
# the peer servers) is not part of this repository; source this from the repository root.

# Exits 2 with one line saying what is missing when ../shared/$1 is not there.
require_shared() {
    if [ ! -e "../shared/$1" ]; then
        echo "$(basename "$0"): needs ../shared/$1 (the project's shared load generator and peers, outside this repository): missing" >&2
        exit 2
    fi
}
