#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/matrix plan (build/plan.c): what a run is, computed in one place:
# the series it runs, skips or leaves to another shard, each kernel's keys,
# the gates, as the plan the report reads (--tsv) and as make text (--mk);
# a bad setting is one line.
. "$(dirname "$0")/lib.sh"

# fixture: the files of a checkout the plan reads, and a matrix of 5.4 (a
# tree by KIT_SRC_5_4), 5.10 and 6.1 (Debian), each with a hardened flavour.
fixture() {
	rm -rf co && mkdir -p co/common/arch co/build/kernel co/test/fstests co/test/cases/plain &&
	for f in common/kernel.config common/sanitize.config test/fstests/kernel.config test/fstests/list \
		common/arch/x86_64.config common/arch/arm64.config common/arch/s390x.config \
		build/kernel/kernel build/lib.sh build/kernel/push-stack build/kernel/check-config build/kit-id; do
		cp "$TOP/$f" "co/$f" || return 1
	done &&
	touch co/test/cases/plain/recipe co/test/cases/plain/expect &&
	for s in 5.4 5.10 6.1; do
		mkdir -p co/versions/$s && echo a.patch >co/versions/$s/series && echo "A $s" >co/versions/$s/a.patch &&
		printf "a.patch\nh.patch\n" >co/versions/$s/series.hardened && echo "H $s" >co/versions/$s/h.patch || return 1
	done &&
	cat >co/m.yaml <<-'Y'
	arches:
	  x86_64: {arch: x86_64, cross: "", target: bzImage, image: arch/x86/boot/bzImage, config: common/arch/x86_64.config,
	           packages: build guest, qemu: qemu-system-x86_64, console: ttyS0, console_qemu: "-serial chardev:con",
	           ktap: ttyS1, ktap_qemu: "-serial chardev:ktap", debian_arch: amd64, debian_config: config.amd64_none_amd64}
	  arm64: {arch: arm64, cross: aarch64-linux-gnu-, target: Image, image: arch/arm64/boot/Image, config: common/arch/arm64.config,
	          packages: build arm64, qemu: qemu-system-aarch64 -M virt, console: ttyAMA0, console_qemu: "-serial chardev:con",
	          ktap: hvc0, ktap_qemu: "-device virtio-serial-pci -device virtconsole,chardev=ktap",
	          debian_arch: arm64, debian_config: config.arm64_none_arm64}
	  s390x: {arch: s390, cross: s390x-linux-gnu-, target: bzImage, image: arch/s390/boot/bzImage, config: common/arch/s390x.config,
	          packages: build s390x, qemu: qemu-system-s390x -M s390-ccw-virtio, console: ttysclp0,
	          console_qemu: "-device sclpconsole,chardev=con", ktap: hvc0, ktap_qemu: "-device virtio-serial-ccw -device virtconsole,chardev=ktap"}
	series:
	  - name: "5.10"
	    source:
	      debian: {package: linux-source-5.10, version: 5.10.262-1, suite: bullseye-security}
	    stack: versions/5.10
	    verified: 5.10.262
	    fixes: {A: upstream v5.9-rc2, B: stack}
	  - name: "6.1"
	    source:
	      debian: {package: linux-source-6.1, version: 6.1.192-3, suite: bookworm-security}
	    stack: versions/6.1
	    verified: 6.1.192
	    fixes: {A: upstream v5.9-rc2, B: stack}
	  - name: "5.4"
	    source:
	      tree: {env: KIT_SRC_5_4}
	    stack: versions/5.4
	    verified: 5.4.301
	    fixes: {A: stack, B: stack}
	Y
}
# plan ARGS...: the fixture's plan, run from the fixture's checkout.
plan() { (cd co && env -u KIT_SRC_5_4 "$BIN/matrix" plan m.yaml "$@" RESULTS=r KIT_CACHE=/c KIT_BUILD=/b); }
# key8 TEXT: the first 8 hex digits of TEXT's sha256.
key8() { printf "%s" "$1" | sha256sum | cut -c1-8; }
# ckey ARCH FRAGMENT...: the config key of a kernel of ARCH built from the
# FRAGMENTs: the sha256 of the fragments and the build scripts, then each
# field of the arch's entry in the fixture above, hashed again.
ckey() {
	ck_a=$1 && shift &&
	ck_f=$(cd co && cat "$@" build/kernel/kernel build/lib.sh build/kernel/push-stack build/kernel/check-config | sha256sum | cut -c1-64) &&
	case $ck_a in
	x86_64) ck_v="x86_64||bzImage|arch/x86/boot/bzImage|common/arch/x86_64.config|build guest|qemu-system-x86_64|ttyS0|-serial chardev:con|ttyS1|-serial chardev:ktap|amd64|config.amd64_none_amd64" ;;
	arm64) ck_v="arm64|aarch64-linux-gnu-|Image|arch/arm64/boot/Image|common/arch/arm64.config|build arm64|qemu-system-aarch64 -M virt|ttyAMA0|-serial chardev:con|hvc0|-device virtio-serial-pci -device virtconsole,chardev=ktap|arm64|config.arm64_none_arm64" ;;
	esac &&
	echo "arch cross target image config packages qemu console console_qemu ktap ktap_qemu debian_arch debian_config" | tr " " "\n" >ck.keys &&
	{ printf "%s" "$ck_f" && echo "$ck_v" | tr "|" "\n" | paste -d= ck.keys - | while IFS= read -r l; do printf "\n%s" "$l"; done; } |
		sha256sum | cut -c1-8
}

test_expect_success 'each series is run or skipped with its reason, each cell with its kernel by its keys' '
	fixture && plan --tsv >tsv &&
	test_grep "^case	plain$" tsv &&
	test_grep "^series	5.10	run	5.10.262	/c/src/5.10-$(key8 /c/debs/linux-source-5.10_5.10.262-1.deb)	debian linux-source-5.10 5.10.262-1$" tsv &&
	test_grep "^series	5.4	skip	5.4.301	no tree given: set KIT_SRC_5_4 to a 5.4.y kernel tree (stack verified on 5.4.301)$" tsv &&
	cfg=$(ckey x86_64 common/kernel.config common/arch/x86_64.config) &&
	src=$(key8 /c/debs/linux-source-6.1_6.1.192-3.deb) && h=$(cd co && "$BIN/matrix" hash m.yaml 6.1 hardened) &&
	test_grep "^cell	6.1	vanilla	/c/out/6.1/vanilla-$src-$cfg/bzImage	-$" tsv &&
	test_grep "^cell	6.1	hardened	/c/out/6.1/hardened-$src-$cfg-$h/bzImage	$h$" tsv &&
	test "$(grep -c "^cell	" tsv)" = 9 && ! grep "^gate\|^fstests\|^corpus" tsv
'
test_expect_success 'a kernel key changes with the build scripts or its stack, and with nothing else' '
	fixture && plan --tsv | grep "^cell" >one &&
	echo "# edited" >>co/versions/6.1/h.patch && plan --tsv | grep "^cell" >two &&
	diff one two | grep "^>" >changed && test "$(wc -l <changed)" = 1 && test_grep "	6.1	hardened	" changed &&
	echo "# edited" >>co/build/kernel/push-stack && plan --tsv | grep "^cell" >three &&
	test "$(diff two three | grep -c "^>")" = 9
'
test_expect_success 'KIT_SRC_X_Y gives a series a tree by path; a path make cannot name is refused in one line' '
	fixture && mkdir -p tree && plan --tsv KIT_SRC_5_4="$trash/tree" >tsv &&
	test_grep "^series	5.4	run	5.4.301	/c/src/5.4-$(key8 "$trash/tree")	tree $trash/tree$" tsv &&
	mkdir -p "sp ace" && test_must_fail 2 plan --tsv KIT_SRC_5_4="$trash/sp ace" >out 2>err &&
	test "$(wc -l <err)" = 1 && test_grep "^KIT_SRC_5_4: .*sp ace.* make cannot name" err && ! test -s out
'
test_expect_success 'the newest series of the run is the newest by version, not the last of matrix.yaml' '
	fixture && mkdir -p tree && plan --mk KIT_SRC_5_4="$trash/tree" >mk &&
	test_grep "^RUN := 5.10 6.1 5.4$" mk && test_grep "^RUN_NEWEST := 6.1$" mk &&
	plan --mk VERSIONS=5.10 >mk && test_grep "^RUN_NEWEST := 5.10$" mk
'
test_expect_success 'SHARD=I/N deals VERSIONS round robin, SHARD=X.Y takes one, anything else is refused' '
	fixture && plan --tsv SHARD=2/2 VERSIONS="6.1 5.10 6.1" >tsv &&
	test_grep "^kit	.*	2/2$" tsv && test_grep "^series	6.1	shard	6.1.192	1/2$" tsv &&
	test_grep "^series	5.10	run	" tsv && test "$(grep -c "^series" tsv)" = 2 &&
	plan --tsv SHARD=6.1 >tsv && test_grep "^series	5.10	shard	5.10.262	5.10$" tsv && test_grep "^series	6.1	run	" tsv &&
	for bad in 0/2 3/2 +1/2 "1/ 2" 01/2 1/02 x 1/9999999999; do
		test_must_fail 2 plan --tsv SHARD="$bad" 2>err &&
		test "$(cat err)" = "SHARD: '"'"'$bad'"'"' is neither I/N with 1 <= I <= N (SHARD=2/3) nor a series of VERSIONS (SHARD=6.1)" ||
		{ echo "SHARD=$bad:"; cat err; return 1; }
	done
'
test_expect_success 'GATES: one key a series; config where GATES_CONFIG says, allmodconfig on the oldest and newest (as sort -V orders them)' '
	fixture && mkdir -p tree && plan --tsv GATES=1 KIT_SRC_5_4="$trash/tree" >tsv &&
	grep "^gate	" tsv | cut -f2,3 | tr "\t" " " >kinds &&
	printf "%s\n" "5.10 config" "5.10 checkpatch" "5.10 shipped" "6.1 config" "6.1 allmodconfig" "6.1 checkpatch" "6.1 shipped" \
		"5.4 config" "5.4 allmodconfig" "5.4 checkpatch" >want && test_cmp want kinds &&
	test "$(grep "^gate	6.1	" tsv | cut -f5 | sort -u | wc -l)" = 1 &&
	plan --tsv GATES=1 GATES_CONFIG=6.1 GATES_ALLMOD= >tsv && grep "^gate	" tsv | cut -f2,3 | tr "\t" " " >kinds &&
	printf "%s\n" "5.10 checkpatch" "5.10 shipped" "6.1 config" "6.1 checkpatch" "6.1 shipped" >want && test_cmp want kinds
'
test_expect_success 'a bad setting is one line; as make text, a $(error) of the escaped line' '
	fixture && test_must_fail 2 plan --tsv VERSIONS="6.1 9.9" >out 2>err &&
	test "$(cat err)" = "VERSIONS: '"'"'9.9'"'"' is not a series of matrix.yaml (known: 5.10 6.1 5.4)" && ! test -s out &&
	test_must_fail 2 plan --mk SHARD="\$(shell touch $trash/pwned)" >mk &&
	test_grep "^PLAN_ERROR := SHARD: .\$\$(shell touch" mk && test_grep "^\$(error \$(PLAN_ERROR))$" mk &&
	! grep PLAN_OK mk && printf "%s\nall:\n" "$(cat mk)" >Makefile && test_must_fail make -s >out 2>&1 &&
	! test -e pwned && test_grep "SHARD: .\$(shell touch" out
'
test_expect_success 'as make text: lists reset, each target its prerequisites and private variables, then PLAN_OK' '
	fixture && plan --mk >mk && test "$(tail -1 mk)" = "PLAN_OK := 1" &&
	test_grep "^override KERNELS :=$" mk && test_grep "^override CELLS :=$" mk &&
	k=$(plan --tsv | awk -F"\t" "\$1 == \"cell\" && \$2 == \"6.1\" && \$3 == \"hardened\" { print \$4 }") &&
	test_grep "^override KERNELS += $k$" mk &&
	test_grep "^$k: override private p_series := 6.1$" mk && test_grep "^$k: override private p_stackv := hardened$" mk &&
	test_grep "^$k: versions/6.1/series.hardened$" mk && test_grep "^$k: ${k%%/hardened-*}/patched-.*/bzImage$" mk &&
	test_grep "^override CELLS += r/6.1/hardened/cells.json$" mk && ! grep "5\.4" mk | grep -v "^SKIP\|^VERSIONS\|^SERIES_ALL"
'
test_expect_success 'ARCHES: each arch its variants (VARIANT@ARCH but the first arch), object tree, config and compiler; one kernel of a series at a time' '
	fixture && plan --tsv ARCHES="x86_64 arm64 s390x" VERSIONS=6.1 >tsv &&
	grep "^cell" tsv | cut -f3 | tr "\n" " " >names &&
	test "$(cat names)" = "vanilla patched hardened vanilla@arm64 patched@arm64 hardened@arm64 vanilla@s390x patched@s390x hardened@s390x " &&
	src=$(key8 /c/debs/linux-source-6.1_6.1.192-3.deb) && h=$(cd co && "$BIN/matrix" hash m.yaml 6.1 hardened) &&
	cfg=$(ckey arm64 common/kernel.config common/arch/arm64.config) &&
	test_grep "^cell	6.1	hardened@arm64	/c/out/6.1/hardened@arm64-$src-$cfg-$h/Image	$h$" tsv &&
	plan --mk ARCHES="x86_64 arm64" VERSIONS=6.1 >mk &&
	k=$(grep "^cell	6.1	hardened@arm64	" tsv | cut -f4) && p=$(grep "^cell	6.1	patched@arm64	" tsv | cut -f4) &&
	test_grep "^$k: $p$" mk && test_grep "^$k: override private p_objdir := /c/obj/6.1-$src@arm64$" mk &&
	test_grep "^$k: override private p_config := /b/config/arm64.config$" mk &&
	test_grep "^$k: override private p_kbuild := KIT_ARCH=arm64 KIT_CROSS=aarch64-linux-gnu- KIT_TARGET=Image KIT_IMAGE=arch/arm64/boot/Image$" mk &&
	test_grep "^$k: | /b/deps-arm64.stamp$" mk &&
	va=$(grep "^cell	6.1	vanilla@arm64	" tsv | cut -f4) && hx=$(grep "^cell	6.1	hardened	" tsv | cut -f4) &&
	test_grep "^$va: | $hx$" mk &&
	test_grep "^/b/config/arm64.config: common/kernel.config common/arch/arm64.config$" mk &&
	test_grep "^/b/config/x86_64-san.config: common/kernel.config common/arch/x86_64.config common/sanitize.config$" mk &&
	! grep "^/b/config/arm64-san" mk
'
test_expect_success 'the shipped gate and the fuzzer boot in the default arch'"'"'s emulator, channels and guest program' '
	fixture && plan --mk ARCHES="x86_64 arm64" VERSIONS=6.1 GATES=1 FUZZ_SERIES=6.1 >mk &&
	env="KIT_QEMU='"'"'qemu-system-x86_64'"'"' KIT_CONSOLE=ttyS0 KIT_CONSOLE_QEMU='"'"'-serial chardev:con'"'"' KIT_KTAP=ttyS1 KIT_KTAP_QEMU='"'"'-serial chardev:ktap'"'"' KIT_GUEST_INIT=/b/bin/guest-init" &&
	test_grep "^r/6.1/gates/shipped/shipped.tsv: override private p_guest_env := $env$" mk &&
	test_grep "^FUZZ_GUEST_ENV := $env$" mk
'
test_expect_success 'ARCHES: each boot its arch'"'"'s emulator, channels and guest program; corpus judged against vanilla of its arch' '
	fixture && plan --mk ARCHES="x86_64 arm64" VERSIONS=6.1 CORPUS= >mk &&
	b=r/6.1/patched@arm64/boot.tsv &&
	test_grep "^$b: .*/Image r/6.1/patched@arm64.kernel /b/bin/guest-init-aarch64-linux-gnu$" mk &&
	test_grep "^$b: override private p_guest_env := KIT_QEMU='"'"'qemu-system-aarch64 -M virt'"'"' KIT_CONSOLE=ttyAMA0 .*KIT_KTAP=hvc0 KIT_KTAP_QEMU='"'"'-device virtio-serial-pci -device virtconsole,chardev=ktap'"'"' KIT_GUEST_INIT=/b/bin/guest-init-aarch64-linux-gnu$" mk &&
	test_grep "^override GUEST_INITS += /b/bin/guest-init-aarch64-linux-gnu$" mk &&
	test_grep "^/b/bin/guest-init-aarch64-linux-gnu: override private p_cc := aarch64-linux-gnu-gcc$" mk &&
	test_grep "^r/6.1/patched/boot.tsv: .*/bzImage r/6.1/patched.kernel /b/bin/guest-init$" mk &&
	(cd co && mkdir -p cdir && printf "corpus:\n  debian: {source: e2fsprogs, version: 1, suite: bookworm}\n  images: t/*.gz\n" >>m.yaml) &&
	plan --mk ARCHES="x86_64 arm64" VERSIONS=6.1 >mk &&
	test_grep "^r/6.1/corpus/hardened@arm64/judged.json: r/6.1/corpus/hardened@arm64/boot.tsv r/6.1/corpus/vanilla@arm64/boot.tsv$" mk &&
	test_grep "^r/6.1/corpus/hardened/judged.json: override private p_vanilla := r/6.1/corpus/vanilla$" mk &&
	! grep "^override FUZZ_KERNELS += .*@" mk
'
test_expect_success 'ARCHES with GATES: a Debian series'"'"' config gate of each arch of the run Debian builds, by its compiler, after its kernels' '
	fixture && mkdir -p tree && plan --tsv GATES=1 GATES_ALLMOD= ARCHES="x86_64 arm64 s390x" KIT_SRC_5_4="$trash/tree" >tsv &&
	grep "^gate	" tsv | cut -f2,3 | tr "\t" " " >kinds &&
	printf "%s\n" "5.10 config" "5.10 config@arm64" "5.10 checkpatch" "5.10 shipped" "6.1 config" "6.1 config@arm64" \
		"6.1 checkpatch" "6.1 shipped" "5.4 config" "5.4 checkpatch" >want && test_cmp want kinds &&
	plan --mk GATES=1 ARCHES="x86_64 arm64" VERSIONS=6.1 >mk &&
	g=r/6.1/gates/config@arm64/gate.tsv && test_grep "^override GATES_BUILD += $g$" mk &&
	test_grep "^$g: override private p_gate_env := KIT_ARCH=arm64 KIT_CROSS=aarch64-linux-gnu- KIT_DEBIAN_CONFIG=config.arm64_none_arm64$" mk &&
	test_grep "^$g: override private p_gate_config := distro:/c/debs/linux-config-6.1_6.1.192-3_arm64.deb$" mk &&
	test_grep "^override DEBS += /c/debs/linux-config-6.1_6.1.192-3_arm64.deb$" mk &&
	test_grep "^/c/debs/linux-config-6.1_6.1.192-3_arm64.deb: override private p_package := linux-config-6.1:arm64$" mk &&
	test_grep "^APT_ARCHES := amd64 arm64$" mk &&
	test_grep "^$g: | /b/deps-arm64.stamp$" mk &&
	test_grep "^r/6.1/gates/config/gate.tsv: override private p_gate_env := KIT_ARCH=x86_64 KIT_CROSS= KIT_DEBIAN_CONFIG=config.amd64_none_amd64$" mk &&
	k=$(plan --tsv ARCHES="x86_64 arm64" VERSIONS=6.1 | grep "^cell	6.1	hardened@arm64	" | cut -f4) &&
	test_grep "^$g: | $k$" mk && ! grep "^$g: | .*/bzImage$" mk &&
	plan --tsv GATES=1 GATES_ALLMOD= GATES_SHIPPED= ARCHES=arm64 VERSIONS=6.1 | grep "^gate	" | cut -f3 | tr "\n" " " >kinds &&
	test "$(cat kinds)" = "config@arm64 checkpatch " &&
	plan --tsv GATES=1 VERSIONS=6.1 | grep "^gate	6.1	config	" | cut -f5 >k1 &&
	plan --tsv GATES=1 VERSIONS=6.1 ARCHES="x86_64 arm64" | grep "^gate	6.1	config" | cut -f3,5 >k2 &&
	test "$(sed -n 1p k2)" = "config	$(cat k1)" && test "$(sed -n 2p k2 | cut -f1)" = config@arm64 &&
	test "$(sed -n 2p k2 | cut -f2)" != "$(cat k1)" &&
	test_grep "^$g: /c/src/6.1-.*\.stamp /b/gates/6.1@arm64.key " mk
'
test_expect_success 'config_source: the config gate of that arch makes Debian'"'"'s config from the source package, fetched once, its deb-src suite listed' '
	fixture && sed -i "s/suite: bullseye-security}/suite: bullseye-security, config_source: [arm64]}/" co/m.yaml &&
	plan --mk GATES=1 ARCHES="x86_64 arm64 s390x" VERSIONS=5.10 >mk &&
	g=r/5.10/gates/config@arm64/gate.tsv d=/c/apt/source/linux_5.10.262-1/linux_5.10.262-1.dsc &&
	test_grep "^$g: override private p_gate_config := debsrc:$d$" mk &&
	test_grep "^$g: override private p_gate_env := KIT_ARCH=arm64 KIT_CROSS=aarch64-linux-gnu- KIT_DEBIAN_CONFIG=config.arm64_none_arm64$" mk &&
	test_grep "^$g: $d$" mk && test "$(grep -c "^override DEBSRCS += $d$" mk)" = 1 &&
	test_grep "^$d: override private p_version := 5.10.262-1$" mk &&
	test_grep "^$d: override private p_suite := bullseye-security$" mk &&
	! grep "^override DEBS += .*_arm64.deb$" mk &&
	test_grep "^r/5.10/gates/config/gate.tsv: override private p_gate_config := distro:/c/debs/linux-config-5.10_5.10.262-1.deb$" mk &&
	test_grep "^SUITES := .*src:bullseye-security" mk &&
	test_grep "^$d: override private p_failed := r/5.10/gates/fetch-source.failed$" mk &&
	test_grep "^/c/debs/linux-config-5.10_5.10.262-1.deb: override private p_failed := r/5.10/gates/fetch.failed$" mk &&
	plan --mk GATES=1 ARCHES="x86_64 arm64" VERSIONS=6.1 >mk6 &&
	test_grep "p_gate_config := distro:/c/debs/linux-config-6.1_6.1.192-3_arm64.deb$" mk6 && ! grep "^override DEBSRCS +=" mk6 &&
	test_grep "^/c/debs/linux-config-6.1_6.1.192-3_arm64.deb: override private p_failed := r/6.1/gates/fetch@arm64.failed$" mk6
'
test_expect_success 'config_source naming the default arch: its config gate takes the source, fetched and checked; the shipped gate keeps the .deb' '
	fixture && sed -i "s/suite: bullseye-security}/suite: bullseye-security, config_source: [amd64]}/" co/m.yaml &&
	plan --mk GATES=1 VERSIONS=5.10 >mk &&
	d=/c/apt/source/linux_5.10.262-1/linux_5.10.262-1.dsc &&
	test_grep "^r/5.10/gates/config/gate.tsv: override private p_gate_config := debsrc:$d$" mk &&
	test_grep "^override DEBSRCS += $d$" mk &&
	test_grep "^override DEBS += /c/debs/linux-config-5.10_5.10.262-1.deb$" mk &&
	test_grep "^r/5.10/gates/shipped/shipped.tsv: .*/c/debs/linux-config-5.10_5.10.262-1.deb" mk
'
test_expect_success 'config_source: an architecture no arch with a debian_config builds, or one given twice, is refused in one line' '
	fixture && sed -i "s/suite: bullseye-security}/suite: bullseye-security, config_source: [s390x]}/" co/m.yaml &&
	test_must_fail 2 plan --tsv 2>err &&
	test_grep "config_source: .s390x. is not the debian_arch of an arch of arches: with a debian_config" err &&
	sed -i "s/config_source: \[s390x\]/config_source: [arm64, arm64]/" co/m.yaml &&
	test_must_fail 2 plan --tsv 2>err && test_grep "config_source: .arm64. given twice" err &&
	sed -i "s/config_source: \[arm64, arm64\]/config_source: arm64/" co/m.yaml &&
	test_must_fail 2 plan --tsv 2>err && test_grep "config_source must be a list of Debian architectures" err
'
test_expect_success 'ARCHES: a kernel is keyed by its arch'"'"'s whole entry, a config gate by the config member it reads' '
	fixture && plan --tsv GATES=1 ARCHES="x86_64 arm64" VERSIONS=6.1 >one &&
	sed -i "/^  arm64:/,/^  [a-z]/s/qemu: qemu-system-aarch64 -M virt/qemu: qemu-system-aarch64 -M virt -cpu max/" co/m.yaml &&
	plan --tsv GATES=1 ARCHES="x86_64 arm64" VERSIONS=6.1 >two &&
	grep "^cell" one >c1 && grep "^cell" two >c2 && diff c1 c2 | grep "^>" | cut -f3 | sort -u >changed &&
	printf "%s\n" hardened@arm64 patched@arm64 vanilla@arm64 >want && test_cmp want changed &&
	sed -i "s/debian_config: config.arm64_none_arm64/debian_config: config.arm64_rt_arm64/" co/m.yaml &&
	plan --tsv GATES=1 ARCHES="x86_64 arm64" VERSIONS=6.1 >three &&
	test "$(grep "^gate	6.1	config	" two)" = "$(grep "^gate	6.1	config	" three)" &&
	a=$(grep "^gate	6.1	config@arm64	" two | cut -f5) && b=$(grep "^gate	6.1	config@arm64	" three | cut -f5) &&
	test -n "$a" && test -n "$b" && test "$a" != "$b"
'
test_expect_success 'ARCHES without the default arch: no allmodconfig gate; SANITIZE and FSTESTS refused, naming it' '
	fixture && plan --tsv GATES=1 ARCHES=arm64 VERSIONS=6.1 | grep "^gate" | cut -f3 | tr "\n" " " >kinds &&
	test "$(cat kinds)" = "config@arm64 checkpatch shipped " &&
	test_must_fail 2 plan --tsv SANITIZE=1 ARCHES=arm64 VERSIONS=6.1 2>err &&
	test_grep "ARCHES: .arm64. lacks x86_64, the default arch, whose kernels SANITIZE=1 builds" err &&
	test_must_fail 2 plan --tsv FSTESTS=1 ARCHES=arm64 VERSIONS=6.1 2>err &&
	test_grep "FSTESTS=1" err
'
test_expect_success 'ARCHES: an arch matrix.yaml does not name is refused in one line' '
	fixture && test_must_fail 2 plan --tsv ARCHES="x86_64 riscv64" >out 2>err &&
	test "$(cat err)" = "ARCHES: '"'"'riscv64'"'"' is not an arch of matrix.yaml (known: x86_64 arm64 s390x)" && ! test -s out
'
test_expect_success 'a switch is 1 or yes, 0, no or empty; anything else is refused, naming it' '
	fixture && for v in 1 yes; do plan --tsv SANITIZE=$v VERSIONS=6.1 | grep -q "	6.1	patched-san	" || return 1; done &&
	for v in 0 no ""; do
		plan --tsv SANITIZE=$v GATES=$v FSTESTS=$v VERSIONS=6.1 >tsv && ! grep -q -- "-san	\|^gate	\|fstests" tsv || return 1
	done &&
	test_must_fail 2 plan --tsv GATES=maybe >out 2>err && ! test -s out &&
	test "$(cat err)" = "GATES: '"'"'maybe'"'"' is neither 1 nor 0 (yes or no; empty is 0)" &&
	plan --mk SANITIZE=no VERSIONS=6.1 | grep -qx "override SANITIZE := "
'
test_expect_success 'a flavour no stack has, a gate or fuzz series matrix.yaml lacks: refused in one line' '
	fixture && test_must_fail 2 plan --tsv FLAVOURS=harden >out 2>err && ! test -s out &&
	test "$(cat err)" = "FLAVOURS: '"'"'harden'"'"' is no flavour of any stack (known: hardened; empty: none)" &&
	for s in GATES_CONFIG GATES_ALLMOD GATES_SHIPPED FUZZ_SERIES; do
		test_must_fail 2 plan --tsv $s="6.1 6.10" 2>err && test_grep "^$s: .6.10. is not a series of matrix.yaml" err || return 1
	done
'
test_expect_success 'a KIT_SRC_X_Y that names nothing is an error, never a skip' '
	fixture && test_must_fail 2 plan --tsv KIT_SRC_6_1="$trash/nowhere" >out 2>err && ! test -s out &&
	test_grep "^KIT_SRC_6_1: .*nowhere. does not exist; give the path of a 6.1 kernel tree, or leave KIT_SRC_6_1 unset" err
'
test_done
