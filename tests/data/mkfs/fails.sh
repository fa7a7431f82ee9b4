# A mkfs that fails the way mke2fs does on a full scratch filesystem:
# progress counters drawn with backspaces, the error last, blank lines.
printf 'mke2fs 1.47.0 (5-Feb-2023)\n'
printf 'Creating filesystem with 16384 1k blocks and 4096 inodes\n'
printf 'Writing superblocks and filesystem accounting information: 0/2'
printf '\b\b\b   \b\b\b'
printf 'mkfs.fake: No space left on device while writing out and closing file system\n\n  \n'
exit 1
