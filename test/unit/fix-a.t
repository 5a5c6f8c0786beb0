#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/kernel/check-fix-a: finds fix A, and fails loudly on a tree without it.
. "$(dirname "$0")/lib.sh"
A=$(ls "$TOP"/common/upstream/A-*.patch)

# The function as it was just before A (5.9-rc1), made from A's preimage.
pre_a() {
	mkdir -p "$1/fs/ext4" && {
		echo 'int ext4_setup_system_zone(struct super_block *sb)'
		echo '{'
		echo '	int ret;'
		sed -n '/^@@/,$p' "$A" | sed '1d' | grep -v '^+' | sed 's/^[ -]//'
		echo '		ret = add_system_zone(system_blks, ext4_inode_bitmap(sb, gdp), 1, 0);'
		echo '		if (ret)'
		echo '			return ret;'
		echo '	}'
		echo '	return 0;'
		echo '}'
	} >"$1/fs/ext4/block_validity.c"
}

test_expect_success 'a tree before A is refused, naming the ignored call' '
	pre_a t && test_must_fail 1 check-fix-a t "$A" 2>err &&
	test_grep "fix A (e7bfb5c9bb3d) is missing: 1 add_system_zone() call" err
'
test_expect_success 'the same tree with A applied passes by reverse-apply' '
	pre_a t && patch -s -d t -p1 -F0 <"$A" && check-fix-a t "$A" >out &&
	test_grep "the original reverse-applies" out
'
test_expect_success 'reshaped code with every return checked passes' '
	mkdir -p r/fs/ext4 && cat >r/fs/ext4/block_validity.c <<-C &&
	int ext4_setup_system_zone(struct super_block *sb)
	{
		if (meta_blks != 0) {
			ret = add_system_zone(system_blks,
					ext4_group_first_block_no(sb, i), meta_blks, 0);
			if (ret)
				goto err;
		}
	}
	C
	check-fix-a r "$A" >out && test_grep "all 1 add_system_zone() calls" out
'
test_expect_success 'reshaped code that drops one return is refused' '
	mkdir -p r/fs/ext4 && cat >r/fs/ext4/block_validity.c <<-C &&
	int ext4_setup_system_zone(struct super_block *sb)
	{
		if (meta_blks != 0)
			add_system_zone(system_blks,
					ext4_group_first_block_no(sb, i), meta_blks, 0);
		ret = add_system_zone(system_blks, b, 1, 0);
	}
	C
	test_must_fail 1 check-fix-a r "$A" 2>err && test_grep "is missing: 1 " err
'
test_expect_success 'a bare call on its own line is refused' '
	mkdir -p r/fs/ext4 && cat >r/fs/ext4/block_validity.c <<-C &&
	int ext4_setup_system_zone(struct super_block *sb)
	{
		for (i = 0; i < ngroups; i++) {
			ret = add_system_zone(system_blks, a, 1, 0);
			if (ret)
				goto err;
			add_system_zone(system_blks, ext4_inode_bitmap(sb, gdp), 1, 0);
		}
	}
	C
	test_must_fail 1 check-fix-a r "$A" 2>err &&
	test_grep "fix A (e7bfb5c9bb3d) is missing: 1 add_system_zone() call" err
'
test_expect_success 'its scratch file is new, not a name known in advance' '
	pre_a t && mkdir -p tmp && echo precious >victim &&
	TMPDIR=$trash/tmp test_must_fail 1 sh -c "ln -s \"\$0\" \"\$TMPDIR/fixa.\$\$\" && exec check-fix-a t \"\$1\"" \
		"$trash/victim" "$A" 2>err &&
	echo precious >want && test_cmp want victim
'
test_done
