# A mkfs during which largedir (the parent) gets SIGINT, and that would
# take ten seconds unless the signal is passed on to it.
kill -INT $PPID
exec sleep 10
