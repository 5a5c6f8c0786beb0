#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The arches of matrix.yaml (make matrix ARCHES=...) below the plan
# (plan.t has the plan's part): a kernel is built by its arch's make
# (ARCH=, CROSS_COMPILE=, its compiler, its target, its image), and a
# guest boots in its arch's emulator, with its console and KTAP channels,
# judged by the expectations of its variant; all with stand-ins for the
# kernel tree and QEMU.
. "$(dirname "$0")/lib.sh"
. "$TOP/test/unit/fake-guest.sh"

# A stand-in kernel tree: its make writes the configuration the kit asks
# for and an image that says how it was built; merge_config.sh appends
# the fragment.
fake_tree() {
	rm -rf obj out && mkdir -p tree/scripts/kconfig stack && echo p.patch >stack/series && : >stack/p.patch &&
	{
		printf "tinyconfig olddefconfig:\n\t@mkdir -p \$(O) && touch \$(O)/.config\n"
		printf "bzImage Image:\n\t@mkdir -p \$(O)/\$(dir \$(KIT_IMAGE_AT)) && "
		printf "echo \"ARCH=\$(ARCH) CROSS_COMPILE=\$(CROSS_COMPILE) CC=\$(CC) target=\$@\" >\$(O)/\$(KIT_IMAGE_AT)\n"
	} >tree/Makefile &&
	printf "#!/bin/sh\\n[ \"\$1\" = -O ] && cat \"\$5\" >>\"\$2/.config\"\\n" >tree/scripts/kconfig/merge_config.sh &&
	chmod +x tree/scripts/kconfig/merge_config.sh &&
	printf "CONFIG_EXT4_FS=y\\n# CONFIG_VT is not set\\n" >frag.config
}

test_expect_success 'a kernel of another arch: its make, its compiler, its target, its image under its own name' '
	fake_tree && KIT_CONFIG=frag.config KIT_ARCH=arm64 KIT_CROSS=aarch64-linux-gnu- KIT_TARGET=Image \
		KIT_IMAGE=arch/arm64/boot/Image KIT_IMAGE_AT=arch/arm64/boot/Image \
		kernel 9.9 vanilla "$trash/tree" "$trash/obj" "$trash/out" stack >log 2>&1 &&
	test "$(cat out/Image)" = "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC=$KIT_CACHE/bin/kcc aarch64-linux-gnu-gcc target=Image" &&
	! test -e out/bzImage && test_grep "Image ready" log
'
test_expect_success 'a kernel of the default arch, nothing said: x86_64, gcc, bzImage' '
	fake_tree && KIT_CONFIG=frag.config KIT_IMAGE_AT=arch/x86/boot/bzImage kernel 9.9 vanilla "$trash/tree" "$trash/obj" "$trash/out" stack >log 2>&1 &&
	test "$(cat out/bzImage)" = "ARCH=x86_64 CROSS_COMPILE= CC=$KIT_CACHE/bin/kcc gcc target=bzImage"
'
test_expect_success 'a kernel whose image is not where its arch says fails, and leaves no image' '
	fake_tree && test_must_fail 1 env KIT_CONFIG=frag.config KIT_ARCH=arm64 KIT_CROSS=aarch64-linux-gnu- KIT_TARGET=Image \
		KIT_IMAGE=arch/arm64/boot/Image KIT_IMAGE_AT=arch/arm64/boot/Image.gz \
		kernel 9.9 vanilla "$trash/tree" "$trash/obj" "$trash/out" stack >log 2>&1 &&
	! test -e out/Image
'
test_expect_success 'a boot of another arch: its emulator and machine, its console, its KTAP device and channel; each disk its name as serial' '
	setup && KIT_QEMU="$trash/fake-qemu -M virt -cpu max" KIT_CONSOLE=ttyAMA0 KIT_CONSOLE_QEMU="-serial chardev:con" \
		KIT_KTAP=hvc0 KIT_KTAP_QEMU="-device virtio-serial-pci -device virtconsole,chardev=ktap" guest ok patched@arm64 r &&
	test "$(st r a)$(st r b)$(st r c)" = PASSPASSPASS &&
	tr "\\n" " " <fake-qemu.args >args &&
	test_grep "^-M virt -cpu max -accel tcg " args &&
	test_grep " -chardev file,id=con,path=r/boot1.log -serial chardev:con " args &&
	test_grep " -chardev file,id=ktap,path=r/boot1.ktap -device virtio-serial-pci -device virtconsole,chardev=ktap " args &&
	test_grep " -append console=ttyAMA0 KIT_KTAP=hvc0 panic=-1 " args &&
	test_grep " -drive file=$trash/images/b.img,format=raw,if=none,id=vdb,readonly=on -device virtio-blk,drive=vdb,serial=vdb " args
'
test_expect_success 'a boot of the PC (x86_64 as matrix.yaml has it): ttyS0 the console, ttyS1 the KTAP, both serial ports' '
	setup && guest ok vanilla r && tr "\\n" " " <fake-qemu.args >args &&
	test_grep " -chardev file,id=con,path=r/boot1.log -serial chardev:con " args &&
	test_grep " -chardev file,id=ktap,path=r/boot1.ktap -serial chardev:ktap " args &&
	test_grep " -append console=ttyS0 KIT_KTAP=ttyS1 panic=-1 " args
'
test_expect_success 'a variant of another arch is judged by its variant'"'"'s expectations' '
	setup && printf "mount: EUCLEAN\\n" >cases/b/expect.patched && guest ok patched@arm64 r &&
	test "$(st r a)$(st r b)" = PASSFAIL && test_grep "expect.patched" r/cells.json
'
test_done
