#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/fetch/apt-state.sh through fetch-debian, without the network: the
# private sources.list comes from apt-sources, or nothing is written.
. "$(dirname "$0")/lib.sh"
export KIT_CACHE="$trash/cache"
unset KIT_DEBIAN_MIRROR KIT_DEBIAN_SECURITY_MIRROR KIT_DEBIAN_KEYRING KIT_SUITES

# Stand-ins for apt: a call is recorded and fails, so nothing leaves the host.
mkdir -p fakebin
for tool in apt-get apt-cache; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/apt-called"\nexit 1\n' "$tool" "$trash" >fakebin/$tool
	chmod +x fakebin/$tool
done
PATH=$trash/fakebin:$PATH

test_expect_success 'no usable apt entry stops with its message, writes nothing, calls no apt' '
	mkdir -p empty && rm -rf cache apt-called &&
	KIT_APT_ETC=empty KIT_HOST_CODENAME=bookworm \
		test_must_fail 1 fetch-debian 9.9 linux-source-9.9 9.9.1-1 bookworm debs/p.deb lock 2>err &&
	echo "apt-sources: no apt entry for '"'"'bookworm'"'"' in empty; set KIT_DEBIAN_MIRROR to a Debian mirror URI" >want &&
	test_cmp want err &&
	test ! -e cache/apt/sources.list && test ! -e cache/apt/sources.list.new && test ! -e apt-called
'
test_expect_success 'a usable entry gives the sources.list apt-sources prints, before apt is asked' '
	mkdir -p etc && echo "deb http://m.example/debian bookworm main" >etc/sources.list &&
	echo "deb http://m.example/security bookworm-security main" >>etc/sources.list &&
	rm -rf cache apt-called debs && : >lock &&
	KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm KIT_SUITES="bookworm bookworm-security" \
		test_must_fail 1 fetch-debian 9.9 linux-source-9.9 9.9.1-1 bookworm debs/p.deb lock >out 2>err &&
	KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm apt-sources bookworm bookworm-security >want &&
	test_cmp want cache/apt/sources.list && test_grep "apt-get update failed" err &&
	test -z "$(ls cache/apt | grep "^sources.list.")"
'
# A stand-in mirror that serves every package asked for, as VERSION 1.0-1.
mkdir -p serving
cat >serving/apt-cache <<'F'
#!/bin/sh
for a in "$@"; do last=$a; done
echo " $last | 1.0-1 | http://m.example/debian bookworm/main amd64 Packages"
F
cat >serving/apt-get <<'F'
#!/bin/sh
for a in "$@"; do last=$a; done
case $last in
update) exit 0 ;;
*=*) echo "${last%=*}" >"${last%=*}_1.0-1_all.deb" ;;
*) exit 100 ;;
esac
F
chmod +x serving/apt-cache serving/apt-get

test_expect_success 'fetches at once (make -j) share the private apt state: none fails, every hash is locked' '
	rm -rf cache debs && : >lock && mkdir -p etc && echo "deb http://m.example/debian bookworm main" >etc/sources.list &&
	echo "deb http://m.example/security bookworm-security main" >>etc/sources.list &&
	i=0 && pids= &&
	while [ $i -lt 40 ]; do
		PATH="$trash/serving:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm KIT_SUITES=bookworm \
			fetch-debian 9.9 pkg$i 1.0-1 bookworm debs/pkg$i.deb lock >out.$i 2>err.$i &
		pids="$pids $!" && i=$((i + 1))
	done &&
	bad= && i=0 &&
	for p in $pids; do
		wait $p || bad="$bad $i"
		i=$((i + 1))
	done &&
	for i in $bad; do sed "s/^/fetch $i: /" err.$i; done &&
	test -z "$bad" && test "$(wc -l <lock)" -eq 40 && test "$(ls debs | wc -l)" -eq 40 &&
	test -z "$(ls cache/apt | grep "^sources.list.")"
'
test_done
