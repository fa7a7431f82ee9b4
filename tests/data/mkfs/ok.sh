# A mkfs that succeeds and says on what.
echo "formatted $1"
