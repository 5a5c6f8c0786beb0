#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/apt-state.sh through fetch-debian, without the network: the
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
test_done
