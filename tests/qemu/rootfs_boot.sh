#!/usr/bin/env bash
# rootfs_boot.sh BOARD [--damage] - boot BOARD as `make run ROOTFS=1` does (tools/run --rootfs: a
# private copy of build/BOARD/rootfs.img as vda, tinymm.root=vda) and look at the programs
# through the kernel's ext2 and page cache:
#   - the root is ext2 on vda; `ls -l /bin` lists every program of build/BOARD/user/bin with
#     mode -rwxr-xr-x, owner 0 0 and the size of the built file; /mnt is empty;
#   - `sha256sum` of each equals the host's of the built file;
#   - a file written under /mnt during the session never reaches build/BOARD/rootfs.img.
# --damage: boot a copy with a byte of /bin/hello flipped instead (tools/run --disk); the hash
# check must then fail, which shows it can.
. "$(dirname "$0")/lib.sh"
tm_init rootfs_boot
[ $# = 1 ] || [ $# = 2 ] || tm_usage "usage: rootfs_boot.sh BOARD [--damage]"
board=$1
[ $# = 1 ] || [ "$2" = --damage ] || tm_usage "unknown option '$2'"
img=$TM_TOP/build/$board/rootfs.img
bins=$TM_TOP/build/$board/user/bin
[ -f "$img" ] || tm_fail "no $img (build it: make all)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
before=$(sha256sum <"$img")
progs=$(cd "$bins" && printf '%s\n' * | sort)
# One sha256sum per 8 programs: the shell takes at most 15 arguments (SHELL_MAX_ARGS).
sums=$(for p in $progs; do printf '/bin/%s\n' "$p"; done | xargs -n 8 echo | sed 's/^/sha256sum /' |
  paste -sd ';' - | sed 's/;/; /g')
run="tinymm.run=ls -l /bin; ls -l /mnt; $sums; fwrite /mnt/scratch 0 8192 7; sync"
if [ $# = 2 ]; then
  cp "$img" "$tmp/damaged.img"
  blk=$(debugfs -R 'bmap /bin/hello 0' "$tmp/damaged.img" 2>/dev/null) || tm_fail "debugfs bmap failed"
  printf '\377\377\377\377' | dd of="$tmp/damaged.img" bs=1 seek=$((blk * 4096 + 64)) conv=notrunc status=none
  disk=(--disk "$tmp/damaged.img" --append "tinymm.root=vda $run")
else
  disk=(--rootfs --append "$run")
fi
log=$tmp/console.log
"$TM_CHECK" --board "$board" "${disk[@]}" --timeout 60 \
  --expect "\\] VFS: Mounted root \\(ext2 filesystem\\) on device vda\\.$" \
  --reject "EUCLEAN|EIO|Unhandled|BUG|WARNING" >"$log" 2>&1
rc=$?
TM_LOG=$log
[ "$rc" = 0 ] || tm_fail "the session failed (boot_check status $rc)"
# What `ls -l /mnt` printed: the lines between its echo and the next command's.
mnt=$(sed -n '/^tinymm> ls -l \/mnt$/,/^tinymm> /p' "$log" | sed '1d;$d')
[ -z "$mnt" ] || tm_fail "/mnt is not empty: $mnt"
for p in $progs; do
  size=$(stat -c %s "$bins/$p")
  grep -Eq "^-rwxr-xr-x +1 0 0 +$size .* $p\$" "$log" ||
    tm_fail "ls -l /bin has no '-rwxr-xr-x 1 0 0 $size ... $p' line"
  want=$(sha256sum <"$bins/$p" | cut -d' ' -f1)
  got=$(awk -v f="/bin/$p" '$2 == f && length($1) == 64 { print $1 }' "$log")
  [ "$got" = "$want" ] || tm_fail "sha256sum /bin/$p: the kernel read ${got:-nothing}, the host built $want"
done
[ "$(sha256sum <"$img")" = "$before" ] || tm_fail "the session changed $img: tools/run --rootfs must boot a copy"
echo "rootfs_boot: PASS ($board: $(tr '\n' ' ' <<<"$progs")read back byte for byte through ext2, /mnt empty, the build's image untouched)"
