#!/usr/bin/env bash
# Kills the order workflow with SIGKILL at random points, round after round, checking after each
# kill what the store holds (every acknowledged send stored, sequence numbers gap-free, no
# transition applied twice, no timeout fired twice, no card charged twice, none both charged and
# expired); some rounds stay down past the payment timeout. Then stops, shuts down and escalates
# the supervisor in the middle of actions, checking after each; then lets a last run finish
# every order and checks that too. Also checks that a second process cannot open a store
# that a first one holds. Usage: Tests/CrashTest/crash-loop.sh PATH/TO/order-workflow [ROUNDS]
set -euo pipefail
bin=$1
rounds=${2:-24}
# The folder stays behind if a check fails, for a look at the store: --history ORDER prints an
# order's journal.
folder=$(mktemp -d)
holder=""
trap '[ -n "$holder" ] && kill -9 "$holder" 2>/dev/null; true' EXIT
store=$folder/orders.sqlite
args=(--orders 10000 --seed 5 --store "$store")

# Checks what the store holds so far, or stops with the store left behind for a look.
verify_so_far() {
    if ! "$bin" "${args[@]}" --verify-so-far > "$folder/verify.log"; then
        sed "s/^/$1: /" "$folder/verify.log" >&2
        echo "error: $1 left the store inconsistent; see $folder" >&2
        exit 1
    fi
    sed "s/^/$1: /" "$folder/verify.log"
}

kills=0
for round in $(seq 1 "$rounds"); do
    status=0
    if (( round % 2 )); then
        # Killed by itself after a random number of transitions...
        "$bin" "${args[@]}" --crash-after $((RANDOM % 1000 + 10)) > "$folder/run.log" 2>&1 || status=$?
    else
        # ...or from outside after a random time, wherever it is then.
        timeout -s KILL "0.$(printf %03d $((RANDOM % 500 + 50)))" "$bin" "${args[@]}" > "$folder/run.log" 2>&1 || status=$?
    fi
    if (( status == 137 )); then kills=$((kills + 1)); fi
    if (( status != 0 && status != 137 )); then
        cat "$folder/run.log" >&2
        echo "error: round $round ended with status $status" >&2
        exit 1
    fi
    verify_so_far "round $round"
    # Every fourth round stays down past the payment timeout (1 s): the orders killed with an
    # approval posted next, or a charge in flight, come back after their timeout fell due.
    if (( round % 4 == 0 )); then sleep 1.2; fi
done

# The supervisor stopped at once, shut down, and escalated (every service call failing), each
# in the middle of actions in flight: each interrupted step runs again on the next run.
for mode in stop shutdown escalate; do
    "$bin" "${args[@]}" --interrupt-after $((RANDOM % 1000 + 100)) --interrupt-by $mode > "$folder/run.log" 2>&1 || {
        cat "$folder/run.log" >&2
        echo "error: the run interrupted by $mode failed" >&2
        exit 1
    }
    grep -q "^Interrupted by $mode" "$folder/run.log" || { cat "$folder/run.log" >&2; echo "error: no $mode" >&2; exit 1; }
    verify_so_far "$mode"
done

"$bin" "${args[@]}" > "$folder/final.log"
tail -8 "$folder/final.log"
if ! "$bin" "${args[@]}" --verify > "$folder/verify.log"; then
    cat "$folder/verify.log" >&2
    echo "error: the finished run left the store inconsistent; see $folder" >&2
    exit 1
fi
cat "$folder/verify.log"
echo "The workflow was killed $kills times in $rounds rounds."
if (( kills < 20 )); then
    echo "error: fewer than 20 kills" >&2
    exit 1
fi

# A second process is refused while the first holds the store.
"$bin" --orders 200000 --store "$folder/held.sqlite" > "$folder/holder.log" 2>&1 &
holder=$!
for _ in $(seq 1 300); do
    grep -q "^Store open" "$folder/holder.log" && break
    sleep 0.1
done
status=0
"$bin" --orders 10 --store "$folder/held.sqlite" > "$folder/second.log" 2>&1 || status=$?
cat "$folder/second.log"
if (( status != 1 )) || ! grep -q "is open in another process (pid $holder)" "$folder/second.log"; then
    echo "error: a second process was not refused the store (status $status)" >&2
    exit 1
fi
echo "A second process was refused the store."
rm -rf "$folder"
