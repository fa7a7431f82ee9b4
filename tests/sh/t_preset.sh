#!/bin/sh
# --preset maildir: the run prints under its first lines what the preset
# set and what was given instead, records it (preset, and every option
# with its value), and does that work: the Maildir workload of 4 KiB
# mails, each fsync'd and new/ fsync'd after its rename (strace), the six
# phases, four clients, three repetitions; an option given wins wherever it stands,
# also in a config file (preset = maildir).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_dep jq jq
need_strace

D=$T/dir
mkdir "$D"

# -ff: a file per process, so that no call of a client is split.
expect_exit 0 traced -ff -y -o "$T/log" -e trace=fsync,write \
    "$LD" --preset maildir -n 50 -N 50 -o "$T/a" --label a "$D" \
    >"$T/stdout" 2>"$T/stderr"
cat "$T/log".* >"$T/log"
want='preset maildir: --workload maildir --file-size 4k --fsync both --clients 4 --repeat 3'
grep -qxF "$want" "$T/stdout" || fail "no preset line: $(cat "$T/stdout")"
j=$T/a/a.json
[ "$(jq -r .meta.preset "$j")" = "${want#preset }" ] ||
    fail "preset not recorded: $(jq -r .meta.preset "$j")"
jq -e '.config.preset == "maildir" and .config.workload == "maildir" and
    .config.names == "maildir" and
    .config."file-size" == "4096" and .config.fsync == "both" and
    .config.clients == "4" and .config.repeat == "3" and
    .config.phases == "deliver,move,flag,scan,read,expunge" and
    ([.rounds[].rep] == [1, 2, 3]) and
    all(.rounds[]; .deliver_ops == 50 and .scan_ops == 200)' "$j" \
    >/dev/null || fail "the run is not the preset's: $(jq -c '.config' "$j")"
# (each of the four clients scans the whole mailbox: 4 x 50 stats)
# 3 repetitions of 50 mails: 150 fsyncs of a mail in tmp/, after a write
# of 4096 bytes each, and 150 of new/ (largedir's outputs are fsync'd
# too, elsewhere).
n=$(grep -cE '^([0-9]+ +)?fsync\([0-9]+<[^>]*/round-[0-9]+-[0-9]+/tmp/[^/>]+>\)' "$T/log" || true)
[ "$n" -eq 150 ] || fail "$n fsync calls of a mail, want 150"
n=$(grep -cE '^([0-9]+ +)?fsync\([0-9]+<[^>]*/round-[0-9]+-[0-9]+/new>\)' "$T/log" || true)
[ "$n" -eq 150 ] || fail "$n fsync calls of new/, want 150"
n=$(grep -cE '^([0-9]+ +)?write\([0-9]+<[^>]*/round-[0-9]+-[0-9]+/tmp/[^/>]+>, "x{32}.*, 4096\) = 4096' "$T/log" || true)
[ "$n" -eq 150 ] || fail "$n writes of 4096 bytes, want 150"

# An option given wins, before or after the preset; -q prints no line.
expect_exit 0 "$LD" -q --fsync none --preset maildir -r 1 -n 20 -N 20 \
    -o "$T/b" --label b "$D" >"$T/stdout"
[ ! -s "$T/stdout" ] || fail "-q printed: $(cat "$T/stdout")"
jq -e '.config.fsync == "none" and .config.repeat == "1" and
    .config.names == "maildir" and
    (.meta.preset | endswith("; given instead: --fsync --repeat"))' \
    "$T/b/b.json" >/dev/null || fail "given options: $(jq -c '.config, .meta.preset' "$T/b/b.json")"

# In a config file, under the command line's.
printf 'label = c\nfstype = %s\npath = %s\npreset = maildir\nfile-size = 0\n' \
    "$(findmnt -no FSTYPE --target "$D")" "$D" >"$T/c.conf"
expect_exit 0 "$LD" -q -c "$T/c.conf" -r 2 -n 20 -N 20 -o "$T/c"
jq -e '.config."file-size" == "0" and .config.repeat == "2" and
    .config.fsync == "both"' "$T/c/c.json" >/dev/null ||
    fail "config file: $(jq -c .config "$T/c/c.json")"

# classic is the default: no preset line, nothing recorded.
expect_exit 0 "$LD" --preset classic -n 20 -N 20 -o "$T/d" --label d "$D" \
    >"$T/stdout"
! grep -q '^preset' "$T/stdout" || fail "classic printed a preset line"
[ "$(jq -r '.meta.preset // "none"' "$T/d/d.json")" = none ] ||
    fail "classic recorded a preset"
[ -z "$(ls -A "$D")" ] || fail "left in $D: $(ls -A "$D")"
