# A mkfs whose last line is longer than a message can hold.
i=0
line=error:
while [ $i -lt 40 ]; do
	line="$line word$i"
	i=$((i + 1))
done
echo "$line"
exit 1
