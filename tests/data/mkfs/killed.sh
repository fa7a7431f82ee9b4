# A mkfs that dies of a signal after one line.
echo "started on $1"
kill -KILL $$
