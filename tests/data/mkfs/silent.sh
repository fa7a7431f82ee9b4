# A mkfs that fails without a word.
exit 3
