#!/usr/bin/env bash
# page_idle_test.sh BOARD [--expect-accessed even|odd] - idle page tracking end to end on a board
# booted with its root filesystem (mm/page_idle.c, docs/page_idle.md; tests/qemu/page_idle.cmake).
# Interactive:
#   1. `exec -b /bin/idletouch 16 /mnt`: a task maps 16 anonymous pages, writes each and waits;
#      `pagemap` gives their 16 frames (present, anonymous, all different);
#   2. `page_idle mark <pfn> 1` for each: "page_idle: 1 marked idle of 1"; `page_idle read` says
#      each is idle, and `kpageflags` shows KPF_IDLE (bit 25) on each;
#   3. `mkdir /mnt/go`: the task touches exactly its even pages (reads and writes) and says so;
#   4. `page_idle read -v <pfn> 1` for each: exactly the even pages accessed ("page_idle: 0 idle,
#      1 accessed of 1" and their "page_idle: pfn 0x... accessed" line), the odd ones idle;
#      one `page_idle read -v` over the window of at most 8192 frames that holds the most of the
#      pages says exactly the odd ones in it idle and names every other frame, the even ones too;
#      `kpageflags` of the 16 frames through tools/kpageflags-extract and tools/pagemap.py
#      (page-types' table): 8 pages with idle_page (i), 8 without;
#   5. bad input, one line each: a pfn beyond RAM, a range running past its end, a pfn below it
#      (where RAM does not start at 0), usage, a bad pfn, a zero count;
#   6. `mkdir /mnt/done`: the task unmaps and exits; AnonPages back to 0, buddycheck and slabcheck
#      pass, no complaint on the console.
# --expect-accessed odd wants the odd half accessed instead: the check must then fail (the test
# page_idle.check_catches_wrong_half).
# --smp N (2 or more) boots N CPUs under MTTCG and spreads the two sides (docs/smp.md, "User tasks
# on all CPUs"): the shell pins itself to CPU 0 (`taskset -p 1 <its pid>`, the pid `cpus` shows
# running `shell`), so it marks and reads there, and idletouch runs with `-c <N-1>`, pinned to the
# last CPU, saying so at its start and after its touches: the marking must reach the other CPU's
# TLB (idletouch makes no system call between its spin and its touches: see its header).
# The signal to touch is then a write to /mnt/go.map (idletouch spins on its mapping of it).
# --append ARGS adds to the kernel command line (tinymm.tlb_shootdown=0 for the twin that fails).
. "$(dirname "$0")/lib.sh"
tm_init page_idle
usage="usage: page_idle_test.sh BOARD [--expect-accessed even|odd] [--smp N] [--append ARGS]"
[ $# -ge 1 ] || tm_usage "$usage"
board=$1 want=even smp=1 append=
shift
while [ $# -ge 2 ]; do
  case $1 in
    --expect-accessed) { [ "$2" = even ] || [ "$2" = odd ]; } || tm_usage "$usage"; want=$2 ;;
    --smp) [[ $2 =~ ^[2-8]$ ]] || tm_usage "$usage"; smp=$2 ;;
    --append) append=$2 ;;
    *) tm_usage "$usage" ;;
  esac
  shift 2
done
[ $# = 0 ] || tm_usage "$usage"
[ -f "$TM_TOP/board/$board/qemu.conf" ] || tm_usage "unknown board '$board'"
# shellcheck source=/dev/null
mem=$(. "$TM_TOP/board/$board/qemu.conf" && echo "${QEMU_MEM_DEFAULT:-256M}")
pages=16
dir=$(mktemp -d) TM_RMDIR=1
TM_TIMEOUT=90
qemu=() touch_cpu=()
[ "$smp" -gt 1 ] && qemu=(-- -smp "$smp" -accel "tcg,thread=multi") touch_cpu=(-c $((smp - 1)))
tm_boot "$dir" --board "$board" --mem "$mem" --rootfs ${append:+--append "$append"} "${qemu[@]}"
if [ "$smp" -gt 1 ]; then
  # The shell to CPU 0: `page_idle mark` and `read` run there, the task on another CPU.
  tm_cmd "cpus"
  shell_pid=$(sed -n 's/^ *[0-9]\{1,\}  [0-9a-fx]\{1,\} *online *\([1-9][0-9]*\)  shell$/\1/p' <<<"$out")
  [ -n "$shell_pid" ] || tm_fail "cpus shows no CPU running the shell: '$out'"
  tm_out_has "^$smp of $smp CPUs online" || tm_fail "not $smp CPUs online: '$out'"
  tm_cmd "taskset -p 1 $shell_pid"
  tm_out_has "^pid $shell_pid's new affinity mask: 1$" || tm_fail "taskset did not pin the shell: '$out'"
  tm_cmd "cpus"
  tm_out_has "^  0  [0-9a-fx]+ +online +$shell_pid  shell$" || tm_fail "the shell is not on CPU 0: '$out'"
fi

# The task's lines come while the shell waits at its prompt, so they follow "tinymm> " on the same
# line: matched anywhere in a line, and a harmless command afterwards keeps them out of the next
# command's output.
tm_cmd "exec -b /bin/idletouch ${touch_cpu[*]} $pages /mnt"
pid=$(sed -n 's|^/bin/idletouch: pid \([1-9][0-9]*\)$|\1|p' <<<"$out")
[ -n "$pid" ] || tm_fail "exec -b printed no '/bin/idletouch: pid <n>' line"
tm_wait "idletouch: pid $pid: $pages pages at 0x[0-9a-f]+: ready$" 1 60
[ "$smp" = 1 ] || tm_console | grep -q "idletouch: on CPU $((smp - 1))$" ||
  tm_fail "idletouch did not say it runs on CPU $((smp - 1))"
base=$(tm_console | sed -n "s/.*idletouch: pid $pid: $pages pages at 0x\([0-9a-f]*\): ready$/\1/p")
tm_cmd "sleep 1"

# --- the frames ---
pfns=()
for ((i = 0; i < pages; i++)); do
  tm_cmd "$(printf 'pagemap %s 0x%x' "$pid" $((16#$base + i * 4096)))"
  [[ $out =~ present\ 1\ swapped\ 0\ file\ 0\ .*\ pfn\ 0x([0-9a-f]+)\ anon-exclusive\ 1$ ]] ||
    tm_fail "page $i is not a present, anonymous, exclusive page: '$out'"
  pfns+=("0x${BASH_REMATCH[1]}")
done
[ "$(printf '%s\n' "${pfns[@]}" | sort -u | wc -l)" = $pages ] || tm_fail "the pages share frames: ${pfns[*]}"

# kpf_idle PFN: 1 if kpageflags shows KPF_IDLE (bit 25) for the frame, else 0; the frame's lines
# are kept in $dir/kpf.log for the host tools.
kpf_idle() {
  tm_cmd "kpageflags $1 1"
  [[ $out =~ (^|$'\n')$1\ 0x([0-9a-f]{16})($'\n'|$) ]] || tm_fail "kpageflags $1 printed no word: '$out'"
  printf '%s\n' "$out" >>"$dir/kpf.log"
  echo $(((16#${BASH_REMATCH[2]} >> 25) & 1))
}

# --- mark: every page idle, and still idle while the task waits ---
for p in "${pfns[@]}"; do
  tm_cmd "page_idle mark $p 1"
  [ "$(grep -c '^page_idle: ' <<<"$out")" = 1 ] && tm_out_has '^page_idle: 1 marked idle of 1$' ||
    tm_fail "page_idle mark $p: '$out', want 'page_idle: 1 marked idle of 1'"
done
for p in "${pfns[@]}"; do
  tm_cmd "page_idle read $p 1"
  tm_out_has '^page_idle: 1 idle, 0 accessed of 1$' || tm_fail "pfn $p is not idle right after marking: '$out'"
  [ "$(kpf_idle "$p")" = 1 ] || tm_fail "kpageflags shows no KPF_IDLE on pfn $p after marking"
done
: >"$dir/kpf.log"

# --- the task touches its even pages ---
if [ "$smp" = 1 ]; then
  tm_cmd "mkdir /mnt/go"
else
  # idletouch -c spins on go.map's first word (no system call between marking and touching):
  # mapwrite writes it through its own MAP_SHARED mapping, from the shell's CPU.
  tm_cmd "exec /bin/mapwrite /mnt/go.map 0 8 1"
  tm_out_has '^/bin/mapwrite: exited with status 0$' || tm_fail "mapwrite did not write go.map: '$out'"
fi
tm_wait "idletouch: touched the $((pages / 2)) even pages of $pages$" 1 60
[ "$smp" = 1 ] || tm_console | grep -q "idletouch: touched on CPU $((smp - 1))$" ||
  tm_fail "idletouch did not touch its pages on CPU $((smp - 1))"
tm_cmd "sleep 1"

accessed=() idle=() kpf=()
for ((i = 0; i < pages; i++)); do
  p=${pfns[i]}
  tm_cmd "page_idle read -v $p 1"
  if tm_out_has '^page_idle: 0 idle, 1 accessed of 1$'; then
    tm_out_has "^page_idle: pfn $p accessed$" || tm_fail "-v did not name the accessed pfn $p: '$out'"
    accessed+=("$i")
  elif tm_out_has '^page_idle: 1 idle, 0 accessed of 1$'; then
    ! tm_out_has '^page_idle: pfn ' || tm_fail "-v named a pfn for an idle page: '$out'"
    idle+=("$i")
  else
    tm_fail "page_idle read -v $p 1: '$out'"
  fi
  kpf+=("$(kpf_idle "$p")")
done
if [ "$want" = even ]; then first=0; else first=1; fi
want_accessed=$(seq "$first" 2 $((pages - 1)) | paste -sd' ')
[ "${accessed[*]}" = "$want_accessed" ] ||
  tm_fail "pages accessed: '${accessed[*]}', want the $want ones '$want_accessed' (idle: '${idle[*]}')"
for ((i = 0; i < pages; i++)); do
  [ "${kpf[i]}" = $(((i + first) % 2)) ] || tm_fail "page $i: KPF_IDLE ${kpf[i]}, not what page_idle read said"
done

# One read over a range: the window of at most 8192 frames holding the most of the pages (they
# may be scattered over RAM).  Exactly the odd pages in it are idle (nothing else was marked),
# and -v names every other frame of it, the even pages among it too.
dec=() lo=0 hi=0 best=0
for p in "${pfns[@]}"; do dec+=($((p))); done
for ((i = 0; i < pages; i++)); do
  n=0 top=${dec[i]}
  for ((k = 0; k < pages; k++)); do
    if ((dec[k] >= dec[i] && dec[k] - dec[i] < 8192)); then
      n=$((n + 1))
      ((dec[k] > top)) && top=${dec[k]}
    fi
  done
  if ((n > best)); then best=$n lo=${dec[i]} hi=$top; fi
done
span=$((hi - lo + 1))
tm_cmd "$(printf 'page_idle read -v 0x%x %d' "$lo" "$span")"
n_idle=0
for ((i = 0; i < pages; i++)); do
  ((dec[i] >= lo && dec[i] <= hi)) || continue
  if [ $(((i + first) % 2)) = 1 ]; then
    n_idle=$((n_idle + 1))
    ! tm_out_has "^page_idle: pfn ${pfns[i]} accessed$" || tm_fail "the range read named idle page $i (${pfns[i]})"
  else
    tm_out_has "^page_idle: pfn ${pfns[i]} accessed$" || tm_fail "the range read did not name accessed page $i (${pfns[i]})"
  fi
done
tm_out_has "^page_idle: $n_idle idle, $((span - n_idle)) accessed of $span$" ||
  tm_fail "page_idle read -v over $span frames: want $n_idle idle: $(grep -v ' accessed$' <<<"$out")"
[ "$(grep -c '^page_idle: pfn 0x[0-9a-f]* accessed$' <<<"$out")" = $((span - n_idle)) ] ||
  tm_fail "page_idle read -v over $span frames: not one -v line per accessed frame"
echo "page_idle: the range read: $best of the pages in $span frames, $n_idle idle" >&2

# page-types' view: the same words through the extractor and pagemap.py's table.
tools=$TM_TOP/tools
"$tools/kpageflags-extract" "$dir/kpf.log" "$dir/kpf.bin" >/dev/null || tm_fail "kpageflags-extract failed"
table=$("$tools/pagemap.py" "$dir/kpf.bin") || tm_fail "pagemap.py failed"
with=$(awk -F'\t' '$1 ~ /^0x/ && $NF ~ /(^|,)idle_page(,|$)/ { n += $2 } END { print n + 0 }' <<<"$table")
without=$(awk -F'\t' '$1 ~ /^0x/ && $NF !~ /idle_page/ && $NF !~ /nopage/ { n += $2 } END { print n + 0 }' <<<"$table")
[ "$with/$without" = "$((pages / 2))/$((pages / 2))" ] ||
  tm_fail "page-types' table: $with pages idle_page, $without without, want $((pages / 2)) each:"$'\n'"$table"

# --- bad input: one line each ---
bad() {	# bad COMMAND LINE-REGEX
  tm_cmd "$1"
  [ "$(wc -l <<<"$out")" = 1 ] && [[ $out =~ $2 ]] || tm_fail "'$1' printed '$out', want one line matching '$2'"
}
bad "page_idle mark 0xfffffff 1" '^page_idle: pfn 0xfffffff is outside RAM \(pfns 0x[0-9a-f]+-0x[0-9a-f]+\)$'
[[ $out =~ pfns\ 0x([0-9a-f]+)-0x([0-9a-f]+)\) ]]
ram_first=$((16#${BASH_REMATCH[1]})) ram_last=$((16#${BASH_REMATCH[2]}))
bad "$(printf 'page_idle read 0x%x 2' $ram_last)" "^page_idle: pfn $(printf '0x%x' $((ram_last + 1))) is outside RAM"
tm_cmd "$(printf 'page_idle read 0x%x 1' $ram_last)"
tm_out_has '^page_idle: [01] idle, [01] accessed of 1$' || tm_fail "RAM's last frame did not read: '$out'"
if [ $ram_first -gt 0 ]; then
  bad "$(printf 'page_idle read -v 0x%x 1' $((ram_first - 1)))" \
    "^page_idle: pfn $(printf '0x%x' $((ram_first - 1))) is outside RAM"
fi
u='page_idle mark <pfn> <count> \| page_idle read \[-v\] <pfn> <count>'
bad "page_idle" "^page_idle: usage: $u$"
bad "page_idle peek ${pfns[0]} 1" "^page_idle: usage: $u$"
bad "page_idle read -v" "^page_idle: usage: $u$"
bad "page_idle mark x 1" "^page_idle: bad pfn 'x' \\(usage: $u\\)$"
bad "page_idle read -v ${pfns[0]} 0" "^page_idle: bad count '0' \\(1 or more, "

# --- the task ends; nothing is left behind ---
tm_cmd "mkdir /mnt/done"
tm_wait "idletouch: done$" 1 60
for _ in 1 2 3 4 5 6 7 8 9 10; do
  tm_cmd "ps"
  grep -Eq "^ *$pid .* idletouch$" <<<"$out" || break
  tm_cmd "sleep 200"
done
grep -Eq "^ *$pid .* idletouch$" <<<"$out" && tm_fail "idletouch (pid $pid) did not exit"
tm_cmd "meminfo"
tm_out_has '^AnonPages: +0 kB$' || tm_fail "AnonPages is not back to 0: $(grep AnonPages <<<"$out")"
tm_cmd "buddycheck"
tm_out_has '^buddycheck: ok \(0 problems\)' || tm_fail "buddycheck did not pass"
tm_cmd "slabcheck"
tm_out_has '^slabcheck: ok \(0 problems\)' || tm_fail "slabcheck did not pass"
tm_no_complaints "$(tm_console)"
tm_poweroff 0
echo "page_idle: $board ($smp CPU$([ "$smp" = 1 ] || echo s)): pid $pid, $pages pages marked idle, accessed ${accessed[*]}, idle ${idle[*]}; KPF_IDLE and page-types agree; bad input one line each"
