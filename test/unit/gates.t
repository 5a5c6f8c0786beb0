#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The build gates without a kernel tree: build/gates/gate-build against a
# stand-in kbuild (a Makefile that compiles fs/ext4/*.c with the real gcc,
# W=1 adding -Wall -Wextra, and runs the real sparse under C=1), so the
# findings are gcc's and sparse's own messages; build/gates/gate-checkpatch
# against a stand-in checkpatch.pl printing checkpatch's terse format; the
# report on what they leave.
. "$(dirname "$0")/lib.sh"
export KIT_CACHE="$trash/cache"

# make check installs them (build/fetch/packages: build, stacks, gates).
command -v sparse >/dev/null && command -v ccache >/dev/null && command -v quilt >/dev/null &&
	test_set_prereq GATES

# The stand-in tree: its Makefile takes the targets and variables
# build/gates/gate-build gives kbuild; fs/ext4/inode.c already has an unused
# variable, a finding before any stack.
tree() {
	rm -rf tree && mkdir -p tree/fs/ext4 tree/scripts/kconfig tree/arch/x86/configs &&
	cat >tree/Makefile <<-'EOF' &&
	.RECIPEPREFIX = >
	.PHONY: fs/ext4/
	O ?= .
	CC ?= gcc
	SRCS := $(wildcard fs/ext4/*.c)
	REFUSED := Makefile:9: C=1 specified, but sparse is not available or not up to date
	x86_64_defconfig allmodconfig:
	>@echo CONFIG_MODULES=y >$(O)/.config; echo CONFIG_EXT4_FS=m >>$(O)/.config
	olddefconfig prepare:
	>@test -f $(O)/.config && echo "$(ARCH)" >$(O)/arch.seen
	fs/ext4/:
	>@mkdir -p $(O)/fs/ext4; rc=0; $(if $(FAKE_SPARSE_REFUSED),echo "$(REFUSED)";) for f in $(SRCS); do echo "  CC [M]  $${f%.c}.o"; \
	>  $(CC) $(if $(W),-Wall -Wextra) -c $$f -o $(O)/$${f%.c}.o || rc=1; \
	>  if [ -n "$(W)" ] && grep -q KDOC $$f; then echo "Warning: $$f:2 function parameter 'a' not described in 'ext4_super'"; fi; \
	>  if [ -n "$(C)" ] && [ -z "$(FAKE_SPARSE_REFUSED)" ]; then echo "  CHECK   $$f"; sparse -D__CHECKER__ $$f; fi; done; exit $$rc
	EOF
	printf "#!/bin/sh\nexit 0\n" >tree/scripts/config &&
	printf "#!/bin/sh\ncat \"\$4\" >>\"\$3\"\n" >tree/scripts/kconfig/merge_config.sh &&
	chmod +x tree/scripts/config tree/scripts/kconfig/merge_config.sh &&
	cat >tree/fs/ext4/ext4.h <<-'EOF' &&
	#ifdef __CHECKER__
	#define __user __attribute__((noderef, address_space(1)))
	#else
	#define __user
	#endif
	EOF
	printf "#include \"ext4.h\"\nint ext4_super(int a);\nint ext4_super(int a)\n{\n\treturn a + 1;\n}\n" >tree/fs/ext4/super.c &&
	printf "#include \"ext4.h\"\nint ext4_inode(void);\nint ext4_inode(void)\n{\n\tint before;\n\treturn 0;\n}\n" >tree/fs/ext4/inode.c
}

# A stack of one change a variant: patched moves inode.c's lines (its
# warning moves too), unused adds an unused variable, addrspace hands a
# __user pointer to a plain one, broken does not compile.
stack() {
	rm -rf stack && mkdir stack && (cd tree && git init -q && git add -A && git commit -qm base) &&
	mkpatch() {
		(cd tree && git diff) | sed '/^diff --git/d; /^index /d' >"stack/$1.patch" && (cd tree && git checkout -q -- .)
	}
	printf "/* moved */\n/* down */\n" | cat - tree/fs/ext4/inode.c >x && mv x tree/fs/ext4/inode.c && mkpatch moved &&
	sed -i "s/return a + 1;/int unused;\n\treturn a + 1;/" tree/fs/ext4/super.c && mkpatch unused &&
	printf "int ext4_addr(int __user *p);\nint ext4_addr(int __user *p)\n{\n\tint *q = p;\n\treturn *q;\n}\n" >>tree/fs/ext4/super.c && mkpatch addrspace &&
	sed -i "s/return a + 1;/return a +;/" tree/fs/ext4/super.c && mkpatch broken &&
	sed -i "s/^int ext4_super(int a);/\/* KDOC *\/\nint ext4_super(int a);/" tree/fs/ext4/super.c && mkpatch kdoc &&
	rm -rf tree/.git &&
	echo moved.patch >stack/series &&
	for f in unused addrspace broken kdoc; do echo $f.patch >stack/series.$f; done
}
gate() {
	gate-build 1.0 "$1" tree stack obj out vanilla patched unused addrspace broken kdoc >log 2>&1
}
row() { awk -F'\t' -v v="$1" '$1 == v { print $2, $3, $4, $5, $6 }' out/gate.tsv; }

test_expect_success GATES 'vanilla builds under the tree defconfig with the fragment: its warning is the baseline' '
	tree && stack && echo CONFIG_EXT4_FS=m >frag &&
	test_must_fail 3 gate defconfig:frag &&
	test "$(row vanilla)" = "ok 1 0 0 0" &&
	test_grep "^gcc	fs/ext4/inode.c: warning: unused variable .before. \[-Wunused-variable\]$" out/vanilla.findings &&
	test_grep "^config	x86_64_defconfig + frag	ext4=m	sparse=[0-9]" out/gate.tsv
'
test_expect_success GATES 'a change that moves a warning (other line numbers) adds nothing' '
	test "$(row patched)" = "ok 1 0 0 0" && test ! -s out/patched.new
'
test_expect_success GATES 'an unused variable fails the W=1 gate, naming it' '
	test "$(row unused)" = "new 2 1 0 0" &&
	test_grep "^gcc	fs/ext4/super.c: warning: unused variable .unused." out/unused.new &&
	test_grep "unused: new, gcc W=1 2 (+1)" log
'
test_expect_success GATES 'a __user pointer given to a plain one fails the sparse gate, expected and got joined' '
	test "$(row addrspace)" = "new 1 0 1 1" &&
	test_grep "^sparse	fs/ext4/super.c: warning: incorrect type in initializer (different address spaces) | expected int \*q | got int \[noderef\] <asn:1> \*p$" out/addrspace.new
'
test_expect_success GATES 'a variant that does not compile is build-failed, the others still judged' '
	test "$(row broken | cut -d" " -f1)" = build-failed
'
test_expect_success GATES 'a kernel-doc warning in the Python kernel-doc'"'"'s form counts as a new W=1 finding' '
	test "$(row kdoc)" = "new 2 1 0 0" &&
	test_grep "^gcc	fs/ext4/super.c: warning: function parameter .a. not described in .ext4_super.$" out/kdoc.new
'
test_expect_success GATES 'a stack of no new finding passes (exit 0), the baseline still listed' '
	gate-build 1.0 defconfig:frag tree stack obj out2 vanilla patched >log2 2>&1 &&
	test_grep "patched: ok, gcc W=1 1 (+0), sparse 0 (+0)" log2
'
test_expect_success GATES 'a tree that refuses sparse: the gate says so, in the record and the report' '
	FAKE_SPARSE_REFUSED=1 gate-build 1.0 defconfig:frag tree stack obj out6 vanilla patched >log6 2>&1 &&
	test_grep "^config	x86_64_defconfig + frag	ext4=m	sparse=refused:" out6/gate.tsv &&
	test_grep "is refused by this tree" log6 &&
	mkdir -p res6 && printf "kit\tc0\ti0\t-\nseries\t1.0\trun\t-\t%s/tree\ngate\t1.0\tconfig\t%s/out6\t-\n" "$trash" "$trash" >res6/plan.tsv &&
	report res6 >table6 &&
	test_grep "gates: defconfig ok: W=1 +0 (vanilla 1), sparse not run (.* refused by the tree)$" table6
'
test_expect_success GATES 'the distribution config comes from the config .deb, its name in the record' '
	mkdir -p deb/DEBIAN deb/usr/src/linux-config-1.0 &&
	printf "Package: linux-config-1.0\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: x <x@x>\nDescription: x\n" >deb/DEBIAN/control &&
	printf "CONFIG_MODULES=y\nCONFIG_EXT4_FS=y\n" | xz >deb/usr/src/linux-config-1.0/config.amd64_none_amd64.xz &&
	dpkg-deb -b deb cfg.deb >/dev/null && rm -rf obj &&
	gate-build 1.0 distro:cfg.deb tree stack obj out3 vanilla >log3 2>&1 &&
	test_grep "^config	linux-config-1.0 1.0-1 (config.amd64_none_amd64)	ext4=y	sparse=" out3/gate.tsv
'
test_expect_success GATES 'another arch'"'"'s gate takes that arch'"'"'s config from the .deb, and builds for that arch' '
	printf "CONFIG_MODULES=y\nCONFIG_EXT4_FS=m\n" | xz >deb/usr/src/linux-config-1.0/config.arm64_none_arm64.xz &&
	dpkg-deb -b deb cfg.deb >/dev/null && rm -rf obj5 &&
	KIT_ARCH=arm64 KIT_DEBIAN_CONFIG=config.arm64_none_arm64 gate-build 1.0 distro:cfg.deb tree stack obj5 out5 vanilla >log5 2>&1 &&
	test_grep "^config	linux-config-1.0 1.0-1 (config.arm64_none_arm64)	ext4=m	sparse=" out5/gate.tsv &&
	test "$(cat obj5/arch.seen)" = arm64 &&
	test_must_fail 1 env KIT_DEBIAN_CONFIG=config.riscv64_none_riscv64 gate-build 1.0 distro:cfg.deb tree stack obj6 out7 vanilla >log7 2>&1 &&
	test_grep "no config.riscv64_none_riscv64.xz in it" log7
'
# A stand-in Debian source package linux 1.0-1: a .dsc naming its Debian
# tarball, whose debian/rules.gen lists each kernel's config files and
# options as Debian's does, and whose debian/bin/kconfig.py (a stand-in:
# the files in order, then each -o, a later line of an option replacing
# an earlier one) merges them.
debsrc() {
	rm -rf dsrc && mkdir -p dsrc/debian/bin dsrc/debian/config/arm64 &&
	printf "CONFIG_MODULES=y\nCONFIG_EXT4_FS=y\n" >dsrc/debian/config/config &&
	printf "CONFIG_EXT4_FS=m\nCONFIG_ARM64_PAGE=4k\n" >dsrc/debian/config/arm64/config &&
	cat >dsrc/debian/bin/kconfig.py <<-'EOF' &&
	import sys
	out, args, opts = sys.argv[1], sys.argv[2:], {}
	while args:
	    a = args.pop(0)
	    for line in ["CONFIG_" + args.pop(0)] if a == "-o" else open(a).read().split():
	        opts[line.split("=")[0]] = line
	with open(out, "w") as o:
	    o.write("".join(v + "\n" for v in opts.values()))
	EOF
	printf "setup_arm64_none_arm64: setup_arm64_none_arm64_real\nsetup_arm64_none_arm64_real::\n" >dsrc/debian/rules.gen &&
	{ printf "\t" && cat <<-'EOF'; } >>dsrc/debian/rules.gen &&
	$(MAKE) -f debian/rules.real setup-arch-flavour ARCH='arm64' KCONFIG='debian/config/config debian/config/arm64/config' KCONFIG_OPTIONS=' -o "BUILD_SALT=\"1.0-arm64\""' LOCALVERSION='-arm64'
	EOF
	mkdsc
}
# mkdsc: the Debian tarball of dsrc/, and the .dsc that pins it.
mkdsc() {
	tar -C dsrc -cJf linux_1.0-1.debian.tar.xz debian &&
	{ printf "Source: linux\nVersion: 1.0-1\nChecksums-Sha256:\n" &&
	  echo " $(sha256sum <linux_1.0-1.debian.tar.xz | cut -d" " -f1) 1 linux_1.0-1.debian.tar.xz"; } >linux_1.0-1.dsc
}
test_expect_success GATES 'a config made from the source package: rules.gen'"'"'s files and options, merged by its kconfig.py, named in the record' '
	debsrc && rm -rf obj8 &&
	KIT_ARCH=arm64 KIT_DEBIAN_CONFIG=config.arm64_none_arm64 gate-build 1.0 debsrc:linux_1.0-1.dsc tree stack obj8 out8 vanilla >log8 2>&1 &&
	test_grep "^config	linux 1.0-1 source (config.arm64_none_arm64 as its debian/rules.gen makes it)	ext4=m	sparse=" out8/gate.tsv &&
	printf "CONFIG_MODULES=y\nCONFIG_EXT4_FS=m\nCONFIG_ARM64_PAGE=4k\nCONFIG_BUILD_SALT=\"1.0-arm64\"\n" >want8 &&
	test_cmp want8 obj8/.config && test "$(cat obj8/arch.seen)" = arm64 && ! test -e obj8/.debian &&
	mkdir -p res8 && printf "kit\tc0\ti0\t-\nseries\t1.0\trun\t-\t%s/tree\ngate\t1.0\tconfig@arm64\t%s/out8\t-\n" "$trash" "$trash" >res8/plan.tsv &&
	report res8 >table8 && test_grep "gates: distro-config@arm64 ok: W=1 +0" table8 &&
	sed -i "s/CONFIG_ARM64_PAGE=4k/CONFIG_ARM64_PAGE=64k/" dsrc/debian/config/arm64/config && mkdsc &&
	KIT_ARCH=arm64 KIT_DEBIAN_CONFIG=config.arm64_none_arm64 gate-build 1.0 debsrc:linux_1.0-1.dsc tree stack obj8 out8 vanilla >log8 2>&1 &&
	test_grep "^CONFIG_ARM64_PAGE=64k$" obj8/.config
'
test_expect_success GATES 'a kernel the source package'"'"'s rules.gen does not build, a kconfig.py that fails or writes nothing, options that are more than words, a tarball the .dsc does not pin, or none, stop the gate, naming it' '
	debsrc && rm -rf obj9 &&
	test_must_fail 1 env KIT_DEBIAN_CONFIG=config.riscv64_none_riscv64 gate-build 1.0 debsrc:linux_1.0-1.dsc tree stack obj9 out9 vanilla 2>err9 &&
	test_grep "debian/rules.gen has no setup_riscv64_none_riscv64_real with KCONFIG" err9 &&
	test_grep "linux_1.0-1.dsc: cannot make config.riscv64_none_riscv64 from it" err9 && ! test -e out9/gate.tsv &&
	printf "import sys\nopen(sys.argv[1], \"w\").close()\n" >dsrc/debian/bin/kconfig.py && mkdsc &&
	test_must_fail 1 env KIT_DEBIAN_CONFIG=config.arm64_none_arm64 gate-build 1.0 debsrc:linux_1.0-1.dsc tree stack obj9 out9 vanilla 2>err9 &&
	test_grep "debian.tar.xz: its debian/bin/kconfig.py wrote no config" err9 && ! test -e out9/gate.tsv &&
	printf "import sys\nsys.exit(1)\n" >dsrc/debian/bin/kconfig.py && mkdsc &&
	test_must_fail 1 env KIT_DEBIAN_CONFIG=config.arm64_none_arm64 gate-build 1.0 debsrc:linux_1.0-1.dsc tree stack obj9 out9 vanilla 2>err9 &&
	test_grep "its debian/bin/kconfig.py failed on debian/config/config debian/config/arm64/config" err9 &&
	sed -i "s/BUILD_SALT=/\$(touch pwned)BUILD_SALT=/" dsrc/debian/rules.gen && mkdsc &&
	test_must_fail 1 env KIT_DEBIAN_CONFIG=config.arm64_none_arm64 gate-build 1.0 debsrc:linux_1.0-1.dsc tree stack obj9 out9 vanilla 2>err9 &&
	test_grep "KCONFIG or KCONFIG_OPTIONS for setup_arm64_none_arm64_real has more than quoted words; refused" err9 &&
	! test -e pwned && ! test -e obj9/.debian/pwned &&
	debsrc && echo junk >>linux_1.0-1.debian.tar.xz &&
	test_must_fail 1 env KIT_DEBIAN_CONFIG=config.arm64_none_arm64 gate-build 1.0 debsrc:linux_1.0-1.dsc tree stack obj9 out9 vanilla 2>err9 &&
	test_grep "linux_1.0-1.debian.tar.xz: sha256 .*, expected .* (linux_1.0-1.dsc); fetch it again (make gates)$" err9 &&
	rm linux_1.0-1.debian.tar.xz &&
	test_must_fail 1 env KIT_DEBIAN_CONFIG=config.arm64_none_arm64 gate-build 1.0 debsrc:linux_1.0-1.dsc tree stack obj9 out9 vanilla 2>err9 &&
	test_grep "linux_1.0-1.dsc: no Debian tarball beside it" err9
'
test_expect_success 'a configuration without ext4 stops the gate, naming it' '
	tree && mkdir -p st && : >st/series && printf "#!/bin/sh\n: >\"\$3\"\n" >tree/scripts/kconfig/merge_config.sh &&
	printf "CONFIG_MODULES=y\n" >frag2 && sed -i "s/echo CONFIG_EXT4_FS=m >>\$(O)\/.config/:/" tree/Makefile &&
	test_must_fail 1 gate-build 1.0 defconfig:frag2 tree st obj4 out4 vanilla 2>err &&
	test_grep "has no CONFIG_EXT4_FS after olddefconfig" err && test ! -e out4/gate.tsv
'

# checkpatch: a stand-in printing its terse format: ERROR for an added
# line with trailing whitespace, GIT_COMMIT_ID for any "commit <hex>" line
# of the message (as checkpatch does for stable's reference line), WARNING
# for an added line over 80 columns.
body() { printf -- "---\n--- a/f.c\n+++ b/f.c\n@@ -1 +1,%d @@\n x\n" "$(($# + 1))"; for l in "$@"; do printf "+%s\n" "$l"; done; }
checkpatch_tree() {
	rm -rf ct && mkdir -p ct/scripts up st2 &&
	cat >ct/scripts/checkpatch.pl <<-'EOF' &&
	my $n = 0; my $body = 0;
	while (<STDIN>) { $n++; chomp;
		$body = 1 if /^--- /;
		if (!$body && /^commit [0-9a-f]{12,}/) { print "-:$n: ERROR:GIT_COMMIT_ID: Please use git commit description style\n"; $c++; }
		print "-:$n: ERROR:TRAILING_WHITESPACE: trailing whitespace\n" if $body && /^\+.*\s$/;
		if ($body && /^\+.{81}/) { print "-:$n: WARNING:LONG_LINE: line length exceeds 80 columns\n"; $w++; }
		$e++ if $body && /^\+.*\s$/; }
	print "total: " . ($e + 0) . " errors, " . ($w + 0) . " warnings, 0 checks, $n lines checked\n" if $e || $w || $c;
	exit(($e || $w) ? 1 : 0);
	EOF
	{ printf "From: Someone <s@example.org>\nSubject: [PATCH] fix\n\nWhy.\n\nSigned-off-by: Someone <s@example.org>\n"; body "y "; } >up/A-0123456789ab-fix.patch &&
	{ printf "From: ext4 backport kit <ext4-backport-kit@users.invalid>\nSubject: [PATCH] ours\n\nWhy.\n\nSigned-off-by: ext4 backport kit <ext4-backport-kit@users.invalid>\n"; body "z "; } >up/O-ours.patch &&
	sha=0123456789abcdef0123456789abcdef01234567 &&
	{ printf "From: Someone <s@example.org>\nSubject: [PATCH] fix\n\ncommit %s upstream.\n\nWhy.\n\n" $sha; body "y "; } >st2/same.patch &&
	{ printf "From: Someone <s@example.org>\nSubject: [PATCH] fix\n\nWhy.\nOriginal: common/upstream/A-0123456789ab-fix.patch\n\n"; body "y " "w "; } >st2/more.patch &&
	{ printf "From: ext4 backport kit <ext4-backport-kit@users.invalid>\nSubject: [PATCH] ours\n\nOriginal: common/upstream/O-ours.patch\n\n"; body "z " "$(printf "%090d" 0)"; } >st2/ours.patch &&
	printf "same.patch\nmore.patch\n" >st2/series && printf "same.patch\nours.patch\n" >st2/series.hardened
}
cprow() { awk -F'\t' -v p="$1" '$1 == p { print $2, $3, $4, $5, $6 }' cp/checkpatch.tsv; }

test_expect_success 'checkpatch: an error the original has too is not new; stable reference line is a note' '
	checkpatch_tree &&
	test_must_fail 3 gate-checkpatch 1.0 ct st2 up cp vanilla patched hardened 2>err &&
	test "$(cprow same.patch)" = "patched,hardened 1 0 0 0" &&
	test_grep "^NOTE:STABLE_REFERENCE: \"commit $sha upstream.\"" cp/same.patch.txt
'
test_expect_success 'checkpatch: one more error of a kind the original has once is new' '
	test "$(cprow more.patch)" = "patched 2 1 0 0" &&
	test_grep "^1.0: more.patch: ERROR:TRAILING_WHITESPACE" err
'
test_expect_success 'checkpatch: an original of the kit'"'"'s own is no baseline; warnings are listed, not fatal' '
	test "$(cprow ours.patch)" = "hardened 1 1 1 0" &&
	test_grep "^WARNING:LONG_LINE" cp/ours.patch.txt
'
test_expect_success 'checkpatch: a stack without new errors passes' '
	printf "same.patch\n" >st2/series &&
	gate-checkpatch 1.0 ct st2 up cp2 vanilla patched >cpout 2>&1 &&
	test_grep "1 patches, 1 errors (0 new), 0 warnings" cpout
'
test_expect_success 'checkpatch: a clean patch (checkpatch --terse prints nothing) is clean, not a checkpatch that did not run' '
	mkdir -p st3 && { printf "From: Someone <s@example.org>\nSubject: [PATCH] fix\n\nWhy.\n\n"; body "ok"; } >st3/clean.patch &&
	echo clean.patch >st3/series &&
	gate-checkpatch 1.0 ct st3 up cp5 vanilla patched >cpout5 2>&1 &&
	test_grep "1 patches, 0 errors (0 new), 0 warnings" cpout5 && test ! -s cp5/clean.patch.txt
'
test_expect_success 'checkpatch: every form of an entry is checked, under its folder' '
	mkdir -p st3/forms/1.0.0-1.0.5 && { printf "From: Someone <s@example.org>\nSubject: [PATCH] fix\n\nWhy.\n\n"; body "ok "; } >st3/forms/1.0.0-1.0.5/clean.patch &&
	test_must_fail 3 gate-checkpatch 1.0 ct st3 up cp6 vanilla patched >cpout6 2>&1 &&
	test "$(awk -F"\t" "\$1 != \"key\"" cp6/checkpatch.tsv | cut -f1)" = "$(printf "clean.patch\nforms/1.0.0-1.0.5/clean.patch")" &&
	test_grep "^ERROR:TRAILING_WHITESPACE" cp6/forms/1.0.0-1.0.5/clean.patch.txt &&
	test_grep "^1.0: forms/1.0.0-1.0.5/clean.patch: ERROR:TRAILING_WHITESPACE" cpout6
'
test_expect_success 'checkpatch: a checkpatch.pl that does not run stops the gate, never a clean pass' '
	mkdir -p dead/scripts && echo "die \"Must be run from the top-level dir. of a kernel tree\n\";" >dead/scripts/checkpatch.pl &&
	test_must_fail 1 gate-checkpatch 1.0 dead st2 up cp4 vanilla patched 2>err &&
	test_grep "Must be run from the top-level dir" err && test_grep "did not check" err &&
	test ! -e cp4/checkpatch.tsv
'
test_expect_success 'checkpatch: a tree without scripts/checkpatch.pl is refused, naming it' '
	mkdir -p bare && test_must_fail 1 gate-checkpatch 1.0 bare st2 up cp3 vanilla patched 2>err &&
	test_grep "bare: no scripts/checkpatch.pl" err
'

# The report: a gate is a record of its series, FAIL naming the findings.
test_expect_success GATES 'the report counts each gate, prints the gate line and the findings, JUnit says FAIL' '
	tree && stack && rm -rf obj &&
	test_must_fail 3 gate-build 1.0 defconfig:frag tree stack obj res/w vanilla patched unused addrspace >log5 2>&1 &&
	mkdir -p res && cp -r cp res/c &&
	printf "kit\tc0\ti0\t-\nseries\t1.0\trun\t1.0.1\t%s/tree\ngate\t1.0\tconfig\t%s/res/w\t-\ngate\t1.0\tcheckpatch\t%s/res/c\t-\n" "$trash" "$trash" "$trash" >res/plan.tsv &&
	test_must_fail 1 report res >table &&
	test_grep "^  1.0    gates: defconfig FAIL: W=1 +1 (vanilla 1), sparse +1 (vanilla 0); checkpatch 4 errors (2 new), 1 warnings$" table &&
	test_grep "^  1.0 gate defconfig: FAIL: unused: gcc	fs/ext4/super.c: warning: unused variable" table &&
	test_grep "0 passed, 2 failed, 0 skipped" table &&
	python3 -c "import json, jsonschema, sys; jsonschema.validate(json.load(open(\"res/results.json\")), json.load(open(sys.argv[1])))" "$TOP/test/report/results.schema.json" &&
	test_grep "<testsuite name=\"1.0/gates\" tests=\"2\" failures=\"2\" errors=\"0\"" res/junit.xml
'
test_expect_success 'the report: a planned gate that left nothing is an ERROR naming its marker' '
	mkdir -p res2/1.0/gates && echo "gate-build: 1.0: make prepare failed" >res2/1.0/gates/config.failed &&
	printf "kit\tc0\ti0\t-\nseries\t1.0\trun\t-\t%s/tree\ngate\t1.0\tconfig\t%s/res2/none\t-\n" "$trash" "$trash" >res2/plan.tsv &&
	test_must_fail 1 report res2 >table2 &&
	test_grep "gates: config ERROR" table2 &&
	test_grep "1.0 gate config: ERROR: gate-build: 1.0: make prepare failed" table2 &&
	python3 -c "import json, jsonschema, sys; jsonschema.validate(json.load(open(\"res2/results.json\")), json.load(open(sys.argv[1])))" "$TOP/test/report/results.schema.json"
'
test_expect_success GATES 'the report: each gate reads the markers of the fetches it needs; its old PASS is an ERROR' '
	rm -rf res10 && mkdir -p res10/1.0/gates && cp -r out8 res10/arm && cp -r out3 res10/def &&
	printf "kit\tc0\ti0\t-\nseries\t1.0\trun\t-\t%s/tree\ngate\t1.0\tconfig\t%s/res10/def\t-\ngate\t1.0\tconfig@arm64\t%s/res10/arm\t-\n" \
		"$trash" "$trash" "$trash" >res10/plan.tsv &&
	report res10 >t10 && test_grep "gates: distro-config ok: .*; distro-config@arm64 ok" t10 &&
	echo "fetch-debian: linux-config-1.0:arm64: 404" >res10/1.0/gates/fetch@arm64.failed &&
	test_must_fail 1 report res10 >t10 && test_grep "gates: distro-config ok: .*; config@arm64 ERROR" t10 &&
	test_grep "1.0 gate config@arm64: ERROR: fetch-debian: linux-config-1.0:arm64: 404" t10 &&
	rm res10/1.0/gates/fetch@arm64.failed && echo "fetch-source: linux 1.0-1: refused" >res10/1.0/gates/fetch-source.failed &&
	test_must_fail 1 report res10 >t10 && test_grep "gates: config ERROR; config@arm64 ERROR" t10 &&
	rm res10/1.0/gates/fetch-source.failed && echo "fetch-debian: linux-config-1.0: 404" >res10/1.0/gates/fetch.failed &&
	test_must_fail 1 report res10 >t10 && test_grep "gates: config ERROR; distro-config@arm64 ok" t10
'
test_expect_success GATES 'the report: a gate result of another key is stale, an ERROR, not its old PASS' '
	mkdir -p res8 && printf "kit\tc0\ti0\t-\nseries\t1.0\trun\t-\t%s/tree\ngate\t1.0\tconfig\t%s/out6\tabc123\n" "$trash" "$trash" >res8/plan.tsv &&
	test_must_fail 1 report res8 >table8 &&
	test_grep "1.0 gate config: ERROR: not run: .*/out6/gate.tsv holds the results of another run (key -, this run.s abc123)" table8
'
# The shipped kernel: only the compiler check and the report run here
# (make gates boots Debian's kernel for real).
cfgdeb() {
	rm -rf sdeb && mkdir -p sdeb/DEBIAN sdeb/usr/src/linux-config-1.0 &&
	printf "Package: linux-config-1.0\nVersion: 1.0-1\nArchitecture: amd64\nMaintainer: x <x@x>\nDescription: x\n" >sdeb/DEBIAN/control &&
	printf "CONFIG_EXT4_FS=m\n$1" | xz >sdeb/usr/src/linux-config-1.0/config.amd64_none_amd64.xz &&
	dpkg-deb -b sdeb "$2" >/dev/null
}
test_expect_success 'shipped: a kernel built by another compiler is a SKIP naming both, nothing fetched' '
	cc=$(gcc --version | head -1) && cc=gcc-${cc##* } && cc=${cc%%.*} &&
	cfgdeb "CONFIG_CC_VERSION_TEXT=\"$cc (Debian 0.0.0-1) 0.0.0\"\n" other.deb &&
	gate-shipped 1.0 1.0-1 sid other.deb tree stack sw sout lock vanilla patched >log7 2>&1 &&
	test_grep "^skip	Debian built it with \"$cc (Debian 0.0.0-1) 0.0.0\", this machine has \"$($cc --version | head -1)\"" sout/shipped.tsv &&
	cfgdeb "CONFIG_CC_VERSION_TEXT=\"gcc-99 (Debian 99.1.0-1) 99.1.0\"\n" absent.deb &&
	gate-shipped 1.0 1.0-1 sid absent.deb tree stack sw sout9 lock vanilla >log9 2>&1 &&
	test_grep "this machine has \"no gcc-99\"" sout9/shipped.tsv &&
	test ! -e "$KIT_CACHE/apt" && test ! -e lock
'
# A stand-in mirror serving Debian's kernel 1.0.0-1-amd64 (1.0-1) in sid:
# each package it downloads is the text "tampered".
shipped_mirror() {
	mkdir -p mirror etc && echo "deb http://m.example/debian bookworm main" >etc/sources.list &&
	echo "deb http://m.example/security bookworm-security main" >>etc/sources.list &&
	cat >mirror/apt-cache <<-'F' &&
	#!/bin/sh
	case "$*" in *" search "*) echo "linux-image-1.0.0-1-amd64-unsigned - Linux 1.0"; exit 0 ;; esac
	for a in "$@"; do last=$a; done
	echo " $last | 1.0-1 | http://m.example/debian sid/main amd64 Packages"
	F
	cat >mirror/apt-get <<-'F' &&
	#!/bin/sh
	for a in "$@"; do last=$a; done
	case $last in update) ;; *=*) echo tampered >"${last%=*}_1.0-1_amd64.deb" ;; esac
	F
	chmod +x mirror/apt-cache mirror/apt-get
}
test_expect_success 'shipped: each cached package is checked against the lock on every run, fetched again, then refused' '
	cc=$(gcc --version | head -1) && cfgdeb "CONFIG_CC_VERSION_TEXT=\"$cc\"\n" same.deb && shipped_mirror &&
	mkdir -p tree "$KIT_CACHE/debs" sw/root-1.0.0-1-amd64-1.0-1 && : >sw/root-1.0.0-1-amd64-1.0-1/.done && : >slock &&
	for p in linux-image-1.0.0-1-amd64-unsigned linux-headers-1.0.0-1-amd64 linux-headers-1.0.0-1-common linux-kbuild-1.0; do
		echo "$p" >"$KIT_CACHE/debs/${p}_1.0-1.deb" &&
		echo "$p 1.0-1 $(sha256sum <"$KIT_CACHE/debs/${p}_1.0-1.deb" | cut -d" " -f1)" >>slock || return 1
	done &&
	echo tampered >"$KIT_CACHE/debs/linux-headers-1.0.0-1-amd64_1.0-1.deb" && sum=$(echo tampered | sha256sum | cut -d" " -f1) &&
	PATH="$trash/mirror:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm KIT_SUITES=sid \
		test_must_fail 1 gate-shipped 1.0 1.0-1 sid same.deb tree stack sw sout3 slock vanilla >log3s 2>err &&
	test_grep "^fetch-debian: $KIT_CACHE/debs/linux-headers-1.0.0-1-amd64_1.0-1.deb: sha256 $sum, expected .* (slock: linux-headers-1.0.0-1-amd64 1.0-1); fetched again, still differs: refused" err &&
	! test -e sout3/shipped.tsv
'
test_expect_success 'shipped: a config without the compiler it was built with is refused' '
	cfgdeb "" none.deb &&
	test_must_fail 1 gate-shipped 1.0 1.0-1 sid none.deb tree stack sw sout2 lock vanilla 2>err &&
	test_grep "none.deb: its config has no CONFIG_CC_VERSION_TEXT" err
'
test_expect_success 'shipped: the report counts a SKIP with the skipped, a case not as expected fails naming it' '
	mkdir -p res7/pass/vanilla res7/pass/patched && cp -r sout res7/skip &&
	printf "vanilla\t2\t2\tshipped\t1.0.0-1-amd64\npatched\t1\t2\tbuilt\t1.0.0-1-amd64\nkey\t-\n" >res7/pass/shipped.tsv &&
	k="\"keys\": {\"guest\": \"$(key guest guest "$(key set prog)")\", \"judge\": \"$(key set judge)\"" &&
	echo "{\"cells\": [{\"case\": \"a\", \"status\": \"PASS\", \"actual\": \"mounted\", \"expected\": \"mounted\", $k, \"case\": \"$(key cases i0 a | cut -d= -f2)\"}}]}" >res7/pass/vanilla/cells.json &&
	echo "{\"cells\": [{\"case\": \"b\", \"status\": \"FAIL\", \"actual\": \"refused EUCLEAN\", \"expected\": \"ro ok, rw EINVAL\", $k, \"case\": \"$(key cases i0 b | cut -d= -f2)\"}}]}" >res7/pass/patched/cells.json &&
	printf "kit\tc0\ti0\t-\nseries\t1.0\trun\t-\t%s/tree\ngate\t1.0\tshipped\t%s/res7/pass\t-\nseries\t2.0\trun\t-\t%s/tree\ngate\t2.0\tshipped\t%s/res7/skip\t-\n" "$trash" "$trash" "$trash" "$trash" >res7/plan.tsv &&
	test_must_fail 1 report res7 >table7 &&
	test_grep "gates: shipped 1.0.0-1-amd64 FAIL: vanilla 2/2 (shipped ext4.ko), patched 1/2 (built ext4.ko)" table7 &&
	test_grep "1.0 gate shipped: FAIL: patched b: refused EUCLEAN (want ro ok, rw EINVAL)" table7 &&
	test_grep "shipped SKIP: Debian built it with" table7 &&
	test_grep "^0 passed, 1 failed, 1 skipped$" table7 &&
	python3 -c "import json, jsonschema, sys; jsonschema.validate(json.load(open(\"res7/results.json\")), json.load(open(sys.argv[1])))" "$TOP/test/report/results.schema.json"
'
test_expect_success 'shipped: verdicts of another guest or judge, or a guest program that did not build, are ERROR, never a pass' '
	sed -i "s/\"judge\": \"/\"judge\": \"0/" res7/pass/vanilla/cells.json &&
	test_must_fail 1 report res7 >table8 && test_grep "1.0 gate shipped: ERROR: vanilla a: stale: made from another judge than" table8 &&
	sed -i "s/\"judge\": \"0/\"judge\": \"/" res7/pass/vanilla/cells.json && mkdir -p res7/tools &&
	echo "the guest program build failed (exit 1)" >res7/tools/guest-init.failed &&
	test_must_fail 1 report res7 >table9 && test_grep "1.0 gate shipped: ERROR: not run: the guest program build failed" table9
'
# gatesof ARGS: series:kind of each gate make plans (real matrix.yaml).
gatesof() {
	env -u GATES_CONFIG -u GATES_SHIPPED make -C "$TOP" -s plan KIT_CACHE="$trash/kc" RESULTS="$trash/r" VERSIONS="5.10 6.1 7.3" GATES=1 GATES_ALLMOD= "$@" >plan &&
	grep "^gate" plan | cut -f2,3 | tr "\t\n" ": "
}
test_expect_success 'GATES_CONFIG names the series of the config gate; checkpatch and shipped run on every series' '
	test "$(gatesof GATES_CONFIG="5.10 7.3")" = "5.10:config 5.10:checkpatch 5.10:shipped 6.1:checkpatch 6.1:shipped 7.3:config 7.3:checkpatch 7.3:shipped " &&
	test "$(gatesof)" = "5.10:config 5.10:checkpatch 5.10:shipped 6.1:config 6.1:checkpatch 6.1:shipped 7.3:config 7.3:checkpatch 7.3:shipped "
'
test_expect_success 'GATES_SHIPPED names the series of the shipped kernel gate, among the Debian-served ones' '
	test "$(gatesof GATES_SHIPPED="5.10 7.3")" = "5.10:config 5.10:checkpatch 5.10:shipped 6.1:config 6.1:checkpatch 7.3:config 7.3:checkpatch 7.3:shipped " &&
	test "$(gatesof GATES_SHIPPED=)" = "5.10:config 5.10:checkpatch 6.1:config 6.1:checkpatch 7.3:config 7.3:checkpatch "
'
test_expect_success 'make check runs the config gate on the oldest series' '
	make -C "$TOP" -n check KIT_CACHE="$trash/kc" RESULTS="$trash/r" VERSIONS="5.10 6.1 7.3" >check.n 2>&1 &&
	test_grep "^KIT_CHECK_GATES_CONFIG=\"5.10\" test/unit/run-tests all$" check.n &&
	make -C "$TOP" -n check KIT_CACHE="$trash/kc" RESULTS="$trash/r" VERSIONS="6.12 7.3" >check.n 2>&1 &&
	test_grep "^KIT_CHECK_GATES_CONFIG=\"6.12\" test/unit/run-tests all$" check.n
'
test_done
