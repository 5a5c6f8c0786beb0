#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/apt-sources and build/fetch-debian without the network: mirror
# choice from an apt configuration, and the lock file.
. "$(dirname "$0")/lib.sh"
export KIT_CACHE="$trash/cache"

apt_etc() {
	mkdir -p etc/sources.list.d &&
	cat >etc/sources.list.d/debian.sources <<-S &&
	Types: deb
	URIs: http://mirror.example/debian
	Suites: bookworm bookworm-updates
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

	Types: deb
	URIs: http://mirror.example/debian-security
	Suites: bookworm-security
	Components: main
	S
	echo "deb [arch=amd64] http://other.example/x nodistro main" >etc/sources.list.d/other.list
}

test_expect_success 'mirrors come from the machine apt configuration' '
	apt_etc && KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm apt-sources sid bullseye-security >out &&
	test_grep "^deb \[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg\] http://mirror.example/debian sid main$" out &&
	test_grep " http://mirror.example/debian-security bullseye-security main$" out
'
test_expect_success 'one-line sources.list entries are read too' '
	mkdir -p etc2/sources.list.d &&
	echo "deb http://one.example/debian bookworm main" >etc2/sources.list &&
	echo "deb http://one.example/security bookworm-security main" >>etc2/sources.list &&
	KIT_APT_ETC=etc2 KIT_HOST_CODENAME=bookworm apt-sources trixie >out &&
	test_grep " http://one.example/debian trixie main$" out
'
test_expect_success 'the environment overrides the mirrors' '
	apt_etc && KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm KIT_DEBIAN_MIRROR=http://o.example/d apt-sources sid >out &&
	test_grep " http://o.example/d sid main$" out
'
test_expect_success 'no entry for this release is one clear error' '
	apt_etc && KIT_HOST_CODENAME=jessie KIT_APT_ETC=etc test_must_fail 1 apt-sources sid 2>err &&
	test_grep "no apt entry for .jessie. in etc; set KIT_DEBIAN_MIRROR" err
'
test_expect_success 'first fetch records the hash in the lock' '
	mkdir -p debs && echo pretend >debs/p.deb && : >lock &&
	KIT_SUITES=sid fetch-debian 9.9 linux-source-9.9 9.9.1-1 sid debs/p.deb lock >out &&
	test_grep "^linux-source-9.9 9.9.1-1 $(sha256sum debs/p.deb | cut -d" " -f1)$" lock
'
test_expect_success 'a .deb whose hash differs from the lock is refused' '
	mkdir -p debs && echo tampered >debs/p.deb &&
	echo "linux-source-9.9 9.9.1-1 0000000000000000000000000000000000000000000000000000000000000000" >lock &&
	test_must_fail 1 fetch-debian 9.9 linux-source-9.9 9.9.1-1 sid debs/p.deb lock 2>err &&
	test_grep "lock: linux-source-9.9 9.9.1-1: the .deb has sha256 .* but the lock says 0000" err &&
	test_grep " 0000000000000000000000000000000000000000000000000000000000000000$" lock
'
test_done
