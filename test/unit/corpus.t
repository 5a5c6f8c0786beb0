#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The e2fsprogs corpus without the network or a kernel: build/fetch/fetch-corpus
# against a stand-in apt serving a made-up source package, test/guest/run-corpus
# against a stand-in QEMU, test/judge/judge --corpus on what they leave.
. "$(dirname "$0")/lib.sh"
pc_guest
. "$TOP/test/unit/fake-qemu.sh"
export KIT_CACHE="$trash/cache" KIT_SUITES=src:bookworm

# An image is its superblock: s_feature_ro_compat at byte 1124; 0x4000 is
# shared_blocks.
image() {
	head -c 1124 /dev/zero >"$1" && printf "$2" >>"$1" && head -c $((4096 - 1128)) /dev/urandom >>"$1"
}

# A source package src 1.0-1: an upstream tarball with tests/a/image.gz
# and tests/b/image.gz (b sets shared_blocks), a Debian tarball, and a .dsc
# pinning both; the stand-in apt-get source copies them, or with
# --dsc-only or --diff-only the .dsc or the Debian tarball alone
# (FAKE_DSC=other serves another .dsc, tarball a tarball it does not name).
fake_src() {
	rm -rf pkg && mkdir -p pkg/src-1.0/tests/a pkg/src-1.0/tests/b pkg/src-1.0/tests/c &&
	image pkg/a.img "\0\0\0\0" && image pkg/b.img "\0\100\0\0" &&
	gzip -c pkg/a.img >pkg/src-1.0/tests/a/image.gz && gzip -c pkg/b.img >pkg/src-1.0/tests/b/image.gz &&
	echo "not an image" >pkg/src-1.0/tests/c/expect &&
	tar -C pkg -czf pkg/src_1.0.orig.tar.gz src-1.0 &&
	mkdir -p pkg/d/debian && echo "Source: src" >pkg/d/debian/control && tar -C pkg/d -cJf pkg/src_1.0-1.debian.tar.xz debian &&
	{ echo "Format: 3.0 (quilt)" && echo "Source: src" && echo "Checksums-Sha256:" &&
	  echo " $(sha256sum pkg/src_1.0.orig.tar.gz | cut -d" " -f1) $(stat -c %s pkg/src_1.0.orig.tar.gz) src_1.0.orig.tar.gz" &&
	  echo " $(sha256sum pkg/src_1.0-1.debian.tar.xz | cut -d" " -f1) $(stat -c %s pkg/src_1.0-1.debian.tar.xz) src_1.0-1.debian.tar.xz"; } >pkg/src_1.0-1.dsc &&
	mkdir -p fakebin &&
	cat >fakebin/apt-cache <<-'F' &&
	#!/bin/sh
	echo "Package: src"; echo "Version: 1.0-1"
	F
	cat >fakebin/apt-get <<-F &&
	#!/bin/sh
	for a in "\$@"; do last=\$a; done
	case \$last in
	update) exit 0 ;;
	src=1.0-1) case " \$* " in
	           *" --dsc-only "*) cp "$trash/pkg/src_1.0-1.dsc" . && exit 0 ;;
	           *" --diff-only "*) cp "$trash/pkg/src_1.0-1.debian.tar.xz" . &&
	                              if [ "\$FAKE_DSC" = tarball ]; then echo junk >>src_1.0-1.debian.tar.xz; fi; exit 0 ;;
	           esac
	           echo "\$*" >>"$trash/apt-get.args"
	           cp "$trash/pkg/src_1.0.orig.tar.gz" "$trash/pkg/src_1.0-1.debian.tar.xz" . && cp "$trash/pkg/src_1.0-1.dsc" . &&
	           if [ "\$FAKE_DSC" = other ]; then echo "Comment: changed" >>src_1.0-1.dsc; fi
	           if [ "\$FAKE_DSC" = tarball ]; then echo junk >>src_1.0.orig.tar.gz; fi ;;
	*) echo "E: no \$last" >&2; exit 100 ;;
	esac
	F
	chmod +x fakebin/apt-cache fakebin/apt-get &&
	mkdir -p etc && echo "deb http://mirror.example/debian bookworm main" >etc/sources.list &&
	echo "deb http://mirror.example/security bookworm-security main" >>etc/sources.list &&
	rm -rf cache
}
fetch_() {
	PATH="$trash/fakebin:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm \
		fetch-corpus src 1.0-1 bookworm "tests/*/image.gz" cache/corpus/src lock
}

test_expect_success 'two fetches of one package at once: the second waits, then finds it whole' '
	fake_src && : >lock && mkdir -p cache/apt/source &&
	{ flock cache/apt/source/src_1.0-1.lock sleep 3 & } && holder=$! && sleep 0.5 &&
	t0=$(date +%s) && fetch_ >out && t1=$(date +%s) && wait $holder &&
	test $((t1 - t0)) -ge 2 && test -f cache/apt/source/src_1.0-1/src_1.0-1.dsc &&
	fetch_ >out2 && test -f cache/corpus/src/index
'
test_expect_success 'the first fetch records the .dsc in the lock and lays every image out on one disk' '
	fake_src && : >lock && fetch_ >out &&
	test_grep "^src:src 1.0-1 $(sha256sum pkg/src_1.0-1.dsc | cut -d" " -f1)$" lock &&
	printf "a 0 4096 -\nb 1048576 4096 shared_blocks\n" >want && test_cmp want cache/corpus/src/index &&
	cmp -n 4096 cache/corpus/src/disk pkg/a.img &&
	cmp -n 4096 -i 1048576:0 cache/corpus/src/disk pkg/b.img
'
test_expect_success 'a .dsc whose hash differs from the lock is refused, nothing laid out' '
	fake_src && echo "src:src 1.0-1 0000000000000000000000000000000000000000000000000000000000000000" >lock &&
	cp lock lock.before &&
	test_must_fail 1 fetch_ 2>err &&
	test_grep "src_1.0-1.dsc: sha256 .*, expected 0000.* (lock: src:src 1.0-1); refused (remove its line from lock only if you trust the new .dsc)$" err &&
	test_cmp lock.before lock && ! test -e cache/corpus/src/index
'
test_expect_success 'a tarball that is not the one the .dsc names is refused' '
	fake_src && : >lock && FAKE_DSC=tarball test_must_fail 1 fetch_ 2>err &&
	test_grep "src_1.0.orig.tar.gz: sha256 .*, expected .* (src_1.0-1.dsc); refused (the mirror serves another file than its .dsc names)$" err && ! test -s lock &&
	! test -e cache/corpus/src/index
'
dl=cache/apt/source/src_1.0-1
sum() { sha256sum <"$1" | cut -d" " -f1; }
test_expect_success 'a run on the downloads as they were checks them, asks no apt and rewrites nothing' '
	fake_src && : >lock && fetch_ >out && touch -d 2000-01-01 cache/corpus/src/index && cp lock lock.before &&
	printf "#!/bin/sh\nexit 1\n" >fakebin/apt-get && fetch_ >out &&
	test "$(stat -c %Y cache/corpus/src/index)" = "$(date -d 2000-01-01 +%s)" && test_cmp lock.before lock
'
test_expect_success 'a cached tarball that differs from its .dsc is deleted and fetched again' '
	fake_src && : >lock && fetch_ >out && cp lock lock.before && echo junk >>$dl/src_1.0.orig.tar.gz &&
	fetch_ >out 2>err && cmp pkg/src_1.0.orig.tar.gz $dl/src_1.0.orig.tar.gz && test_cmp lock.before lock &&
	test_grep "^fetch-corpus: .*/src_1.0.orig.tar.gz: sha256 .*, expected $(sum pkg/src_1.0.orig.tar.gz) (src_1.0-1.dsc); deleting .* and fetching it again$" err &&
	printf "a 0 4096 -\nb 1048576 4096 shared_blocks\n" >want && test_cmp want cache/corpus/src/index
'
test_expect_success 'a cached tarball the mirror serves again as it is, not as its .dsc says, is refused in one line' '
	fake_src && : >lock && fetch_ >out && echo junk >>$dl/src_1.0.orig.tar.gz && cp $dl/src_1.0.orig.tar.gz bad.tar.gz &&
	FAKE_DSC=tarball test_must_fail 1 fetch_ 2>err &&
	echo "fetch-corpus: $trash/$dl/src_1.0.orig.tar.gz: sha256 $(sum bad.tar.gz), expected $(sum pkg/src_1.0.orig.tar.gz) (src_1.0-1.dsc); fetched again, still differs: refused (the mirror serves another file than its .dsc names)" >want &&
	tail -1 err >got && test_cmp want got && ! test -e $dl
'
test_expect_success 'a cached .dsc that differs from the lock is fetched again, the disk kept' '
	fake_src && : >lock && fetch_ >out && cp lock lock.before && cp cache/corpus/src/from from.before &&
	echo "Comment: changed" >>$dl/src_1.0-1.dsc && fetch_ >out 2>err &&
	test_grep "src_1.0-1.dsc: sha256 .*, expected $(sum pkg/src_1.0-1.dsc) (lock: src:src 1.0-1); deleting" err &&
	cmp pkg/src_1.0-1.dsc $dl/src_1.0-1.dsc && test_cmp lock.before lock && test_cmp from.before cache/corpus/src/from
'
test_expect_success 'a disk made from other files (another pin, another pattern) is made again' '
	fake_src && : >lock && fetch_ >out && echo "pattern other" >cache/corpus/src/from &&
	fetch_ >out && test_grep "^pattern tests/\*/image.gz$" cache/corpus/src/from &&
	test_grep "^src:src 1.0-1 $(sum pkg/src_1.0-1.dsc)$" cache/corpus/src/from
'
test_expect_success 'the first fetch writes the lock only under the flock every writer of it takes' '
	fake_src && : >lock &&
	(exec 8<. && flock 8 && PATH="$trash/fakebin:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm \
		test_must_fail 124 timeout 5 fetch-corpus src 1.0-1 bookworm "tests/*/image.gz" cache/corpus/src lock >out 2>&1) &&
	! test -s lock && ! test -e cache/corpus/src/index &&
	fetch_ >out && test_grep "^src:src 1.0-1 " lock
'
test_expect_success 'a pattern nothing matches is one clear error' '
	fake_src && : >lock &&
	PATH="$trash/fakebin:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm \
		test_must_fail 1 fetch-corpus src 1.0-1 bookworm "tests/*/image.bz2" cache/corpus/src lock 2>err &&
	test_grep "no file matches .tests/\*/image.bz2. (matrix.yaml: corpus: images)" err
'

fsrc() {
	PATH="$trash/fakebin:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm fetch-source 9.9 src 1.0-1 bookworm "$@"
}
test_expect_success 'fetch-source debian: the .dsc and the Debian tarball alone, the .dsc recorded in the lock' '
	fake_src && : >lock && rm -f apt-get.args && fsrc debian lock >out &&
	test_grep "downloading the debian part of the source of src 1.0-1 from bookworm" out &&
	cmp pkg/src_1.0-1.dsc $dl/src_1.0-1.dsc && cmp pkg/src_1.0-1.debian.tar.xz $dl/src_1.0-1.debian.tar.xz &&
	! test -e $dl/src_1.0.orig.tar.gz && ! test -e apt-get.args &&
	test_grep "^src:src 1.0-1 $(sum pkg/src_1.0-1.dsc)$" lock &&
	printf "#!/bin/sh\nexit 1\n" >fakebin/apt-get && fsrc debian lock >out && ! test -s out
'
test_expect_success 'fetch-source debian: a Debian tarball that is not the one the .dsc names is refused, nothing kept' '
	fake_src && : >lock && FAKE_DSC=tarball test_must_fail 1 fsrc debian lock 2>err &&
	test_grep "src_1.0-1.debian.tar.xz: sha256 .*, expected $(sum pkg/src_1.0-1.debian.tar.xz) (src_1.0-1.dsc); refused (the mirror serves another file than its .dsc names)$" err &&
	! test -s lock && ! test -e $dl
'
test_expect_success 'fetch-source: a PART it does not know is a usage error' '
	fake_src && test_must_fail 2 fsrc orig lock 2>err && test_grep "PART is all or debian, not .orig." err
'

# corpus_guest: a stand-in QEMU for run-corpus: it reads /corpus from the initramfs and
# says of each image what FAKE_<image> asks (ok by default): refused,
# other (another walk), hang, oops, tabs (trouble with a tab and a carriage
# return), late (a WARNING after its verdict, as test/guest/guest-init.c reports it).
corpus_guest() {
	mkdir -p corpus && printf "a 0 4096 -\nb 1048576 4096 -\nc 2097152 4096 -\ns 3145728 4096 shared_blocks\n" >corpus/index &&
	: >corpus/disk && : >init && chmod +x init && : >kernel &&
	fake_qemu fake-qemu <<-'Q'
	echo "KTAP version 1"
	n=0
	cpio -i --quiet --to-stdout corpus <"$rd" | tail -n +2 | while read -r img off size; do
		n=$((n + 1))
		echo "# case $n $img"
		eval "what=\${FAKE_$img:-ok}"
		case $what in
		hang) exec sleep 60 ;;
		refused) echo "# out: mount: EUCLEAN"; echo "# kmsg: EXT4-fs (loop0): bad geometry"; echo "ok $n $img" ;;
		oops) echo "# out: mount: ok"; echo "not ok $n $img # ERROR kernel trouble: BUG: KASAN: use-after-free in ext4_xattr"; ;;
		tabs) echo "# out: mount: ok"; printf "not ok $n $img # ERROR kernel trouble: BUG: KASAN:\tuse-after-free in ext4_xattr\r\n" ;;
		late) echo "# out: mount: EUCLEAN"; echo "ok $n $img"; echo "# after $n $img"; echo "# kmsg: WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:9"
		      echo "# trouble after $n $img: WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:9" ;;
		*) echo "# out: mount: ok"
		   echo "# out: walk: 2 dirs, 3 files, 0 links, 99 bytes, 0 errors, sha256 $( [ "$what" = other ] && echo 2222 || echo 1111)"
		   echo "# out: umount: ok"; echo "ok $n $img" ;;
		esac
	done
	Q
}
corpus_() {
	KIT_QEMU="$trash/fake-qemu" KIT_GUEST_INIT="$trash/init" KIT_GUEST_STALL=2 KIT_GUEST_TIMEOUT=20 \
		run-corpus 9.9 "$1" kernel corpus "runs/$1" >/dev/null &&
	KIT_CORPUS_EXPECT="$trash/expect" judge --corpus 9.9 "$1" "runs/$1" runs/vanilla >/dev/null
}
# rec VARIANT IMAGE FIELD: one field of one judged record.
rec() {
	python3 -c "import json,sys; print(next(r[sys.argv[3]] for r in json.load(open(sys.argv[1]))[\"records\"] if r[\"image\"] == sys.argv[2]))" "runs/$1/judged.json" "$2" "$3"
}

test_expect_success 'the same verdict as vanilla passes' '
	corpus_guest && mkdir -p expect && corpus_ vanilla && corpus_ patched &&
	test "$(rec patched a status):$(rec patched b status):$(rec patched a vanilla)" = "PASS:PASS:mounted, 3 files, 99 bytes"
'
test_expect_success 'a verdict other than vanilla fails, naming both' '
	corpus_guest && corpus_ vanilla && FAKE_a=refused FAKE_b=other corpus_ hardened &&
	test "$(rec hardened a status):$(rec hardened b status)" = FAIL:FAIL &&
	test "$(rec hardened a reason)" = "mount: EUCLEAN, expected ok on vanilla" &&
	test "$(rec hardened a kernel)" = "EXT4-fs (DEV): bad geometry" &&
	rec hardened b diff >diff && test_grep "^-walk: .*sha256 1111" diff && test_grep "^+walk: .*sha256 2222" diff
'
test_expect_success 'a difference an expectation file explains passes, with its why' '
	corpus_guest && mkdir -p expect && printf "# the hardened zone order refuses it\nmount: EUCLEAN\nkmsg~ bad geometry\n" >expect/a.hardened &&
	corpus_ vanilla && FAKE_a=refused corpus_ hardened &&
	test "$(rec hardened a status):$(rec hardened a explained)" = "PASS:the hardened zone order refuses it"
'
test_expect_success 'an expectation file that explains no difference fails' '
	corpus_guest && mkdir -p expect && printf "# stale\nmount: EUCLEAN\n" >expect/a.hardened &&
	corpus_ vanilla && corpus_ hardened &&
	test "$(rec hardened a status)" = FAIL && rec hardened a reason >r && test_grep "explains a difference: remove it" r
'
test_expect_success 'an expectation for one series is read before the general one' '
	corpus_guest && mkdir -p expect && printf "# general\nmount: EIO\n" >expect/a.hardened &&
	printf "# on 9.9\nmount: EUCLEAN\n" >expect/a.hardened.9.9 &&
	corpus_ vanilla && FAKE_a=refused corpus_ hardened && test "$(rec hardened a explained)" = "on 9.9"
'
test_expect_success 'kernel trouble is an ERROR, on vanilla too' '
	corpus_guest && rm -rf expect && mkdir expect && FAKE_b=oops corpus_ vanilla && FAKE_c=oops corpus_ patched &&
	test "$(rec vanilla b status):$(rec patched c status)" = ERROR:ERROR &&
	rec patched c reason >r && test_grep "KASAN" r &&
	test "$(rec patched b status)" = ERROR && rec patched b reason >r && test_grep "no vanilla verdict" r
'
test_expect_success 'a tab and a carriage return in an image'"'"'s trouble cost no other image its verdict' '
	corpus_guest && FAKE_b=tabs corpus_ vanilla && FAKE_b=tabs corpus_ patched &&
	test "$(rec patched a status):$(rec patched b status):$(rec patched c status)" = PASS:ERROR:PASS &&
	test "$(rec patched b reason)" = "kernel trouble: BUG: KASAN:\\tuse-after-free in ext4_xattr"
'
test_expect_success 'a WARNING after an image'"'"'s verdict is that image'"'"'s ERROR, on vanilla too' '
	corpus_guest && FAKE_b=late corpus_ vanilla &&
	test "$(rec vanilla a status):$(rec vanilla b status):$(rec vanilla c status)" = PASS:ERROR:PASS &&
	test "$(rec vanilla b reason)" = "kernel trouble after its verdict: WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:9" &&
	test_grep "^WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:9$" runs/vanilla/cases/b.kmsg
'
test_expect_success 'an image that hangs is TIMEOUT and the images after it still run' '
	corpus_guest && corpus_ vanilla && FAKE_b=hang corpus_ patched &&
	test "$(rec patched a status):$(rec patched b status):$(rec patched c status)" = PASS:TIMEOUT:PASS &&
	rec patched b reason >r && test_grep "2 seconds without output" r
'
test_expect_success 'an image that sets shared_blocks is held to vanilla too: none passes unmeasured' '
	corpus_guest && corpus_ vanilla && corpus_ patched &&
	test "$(rec patched s status):$(rec patched s shared)" = PASS:True &&
	FAKE_s=refused corpus_ patched && test "$(rec patched s status)" = FAIL &&
	mkdir -p expect && printf "# the flag is what the stack reads\nmount: EUCLEAN\n" >expect/s.patched && export KIT_CORPUS_EXPECT="$trash/expect" &&
	judge --corpus 9.9 patched runs/patched runs/vanilla >/dev/null &&
	test "$(rec patched s status)" = PASS
'
test_expect_success 'a variant judged without vanilla is bad input' '
	corpus_guest && corpus_ vanilla && KIT_QEMU="$trash/fake-qemu" KIT_GUEST_INIT="$trash/init" run-corpus 9.9 patched kernel corpus runs/patched >/dev/null &&
	test_must_fail 2 judge --corpus 9.9 patched runs/patched 2>err && test_grep "VANILLA_OUTDIR" err
'
test_done
