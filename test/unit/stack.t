#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/kernel: a stack that does not apply is reported with the failing
# patch and file, and leaves the tree unpatched.
. "$(dirname "$0")/lib.sh"
export KIT_CACHE="$trash/cache" KIT_CONFIG="$TOP/common/kernel.config"

tree() {
	mkdir -p t/fs/ext4 s && printf "a\nb\nc\n" >t/fs/ext4/super.c && cp t/fs/ext4/super.c pristine &&
	printf "good.patch\nbad.patch\n" >s/series &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n" >s/good.patch &&
	printf -- "--- a/fs/ext4/super.c\n+++ b/fs/ext4/super.c\n@@ -1,3 +1,3 @@\n x\n-y\n+Y\n z\n" >s/bad.patch
}

test_expect_success 'a patch that does not apply is named, with its file' '
	tree && test_must_fail 1 kernel 9.9 patched t obj out s 2>err &&
	test_grep "bad.patch of .*/series does not apply to t at zero fuzz" err &&
	test_grep "fs/ext4/super.c" err
'
test_expect_success 'after the failure the tree is as unpacked' '
	tree && test_must_fail 1 kernel 9.9 patched t obj out s 2>/dev/null &&
	cmp pristine t/fs/ext4/super.c
'
test_expect_success 'a patch that needs fuzz is refused' '
	tree && printf "good.patch\n" >s/series &&
	printf "a\nb\nc-changed\n" >t/fs/ext4/super.c &&
	test_must_fail 1 kernel 9.9 patched t obj out s 2>err &&
	test_grep "good.patch of .* does not apply" err
'
test_done
