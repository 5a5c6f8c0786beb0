#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/kernel/check-config: every option of the fragment must survive olddefconfig.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a .config with every option passes' '
	grep "^CONFIG_" "$TOP/common/kernel.config" >.config &&
	echo "CONFIG_OTHER=y" >>.config && check-config "$TOP/common/kernel.config" .config
'
test_expect_success 'a dropped option is named' '
	grep "^CONFIG_" "$TOP/common/kernel.config" | grep -v "^CONFIG_VIRTIO_BLK=" >.config &&
	echo "# CONFIG_VIRTIO_BLK is not set" >>.config &&
	test_must_fail 1 check-config "$TOP/common/kernel.config" .config 2>err &&
	test_grep "not set as .* asks: CONFIG_VIRTIO_BLK=y$" err
'
test_expect_success 'a module where built-in was asked is not enough' '
	grep "^CONFIG_" "$TOP/common/kernel.config" | sed "s/^CONFIG_EXT4_FS=y/CONFIG_EXT4_FS=m/" >.config &&
	test_must_fail 1 check-config "$TOP/common/kernel.config" .config 2>err &&
	test_grep "CONFIG_EXT4_FS=y" err
'
test_expect_success 'an option the fragment turns off that is still on is named' '
	grep "^CONFIG_" "$TOP/common/sanitize.config" >.config && echo "CONFIG_SLUB_TINY=y" >>.config &&
	test_must_fail 1 check-config "$TOP/common/sanitize.config" .config 2>err &&
	test_grep "asks: # CONFIG_SLUB_TINY is not set$" err &&
	sed -i "/CONFIG_SLUB_TINY=y/d" .config && check-config "$TOP/common/sanitize.config" .config
'
test_done
