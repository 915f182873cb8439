#!/bin/sh
# Instructions per iteration of one rx-bench workload, from two callgrind runs at
# different scales (start-up costs cancel out). Usage:
#   Scripts/rx/callgrind_per_iteration.sh "map/filter x6 pumping" rx|plain [iterations-at-scale-1]
set -e
name="$1"; side="$2"; base="${3:-100000}"
bin=.build/release/rx-bench
run() {
    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$$.out "$bin" --runs 1 --scale "$1" --only "$name" --"$side"-only >/dev/null 2>/tmp/cg.$$.err
    grep -o 'refs: *[0-9,]*' /tmp/cg.$$.err | tr -d ',' | awk '{print $2}'
}
a=$(run 0.01); b=$(run 0.02)
# Each run executes the workload twice (warm-up + 1 measured run).
echo "$name ($side): $(( (b - a) / (2 * base / 100) )) instructions per iteration"
rm -f /tmp/cg.$$.out /tmp/cg.$$.err
