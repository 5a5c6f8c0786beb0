#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build/fetch/apt-sources and build/fetch/fetch-debian without the network: mirror
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
# serve PACKAGE VERSION FILE: a stand-in mirror for fetch-debian (apt-cache
# and apt-get in fakebin, every call logged in apt-called): sid serves FILE
# as PACKAGE VERSION.
serve() {
	mkdir -p fakebin && rm -f apt-called &&
	cat >fakebin/apt-cache <<-F &&
	#!/bin/sh
	echo "apt-cache \$*" >>"$trash/apt-called"
	echo " $1 | $2 | http://mirror.example/debian sid/main amd64 Packages"
	F
	cat >fakebin/apt-get <<-F &&
	#!/bin/sh
	echo "apt-get \$*" >>"$trash/apt-called"
	for a in "\$@"; do last=\$a; done
	case \$last in
	update) exit 0 ;;
	$1=$2) cp "$trash/$3" "${1%%:*}_$2_all.deb" ;;
	*) echo "E: no \$last" >&2; exit 100 ;;
	esac
	F
	chmod +x fakebin/apt-cache fakebin/apt-get
}
fetch_() {
	PATH="$trash/fakebin:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm KIT_SUITES=sid \
		fetch-debian 9.9 linux-source-9.9 9.9.1-1 sid debs/p.deb lock
}
sum() { sha256sum <"$1" | cut -d" " -f1; }
zeros=0000000000000000000000000000000000000000000000000000000000000000

test_expect_success 'a package of another architecture (NAME:ARCH): apt asked with the run'"'"'s architectures, locked by that name' '
	apt_etc && echo cfg >cfg.deb && serve linux-config-9.9:arm64 9.9.1-1 cfg.deb && mkdir -p adebs && : >lock &&
	PATH="$trash/fakebin:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm KIT_SUITES=sid KIT_APT_ARCHES="amd64 arm64" \
		fetch-debian 9.9 linux-config-9.9:arm64 9.9.1-1 sid adebs/c_arm64.deb lock >out &&
	test_cmp cfg.deb adebs/c_arm64.deb && test_grep "^linux-config-9.9:arm64 9.9.1-1 $(sum cfg.deb)$" lock &&
	test_grep "^apt-get -o APT::Architectures::=amd64 -o APT::Architectures::=arm64 .* download linux-config-9.9:arm64=9.9.1-1$" apt-called
'
test_expect_success 'a cached .deb that is the locked one is taken as it is, apt never asked' '
	apt_etc && echo good >good.deb && serve linux-source-9.9 9.9.1-1 good.deb &&
	mkdir -p debs && cp good.deb debs/p.deb && echo "linux-source-9.9 9.9.1-1 $(sum good.deb)" >lock &&
	fetch_ >out && test_cmp good.deb debs/p.deb && test ! -e apt-called
'
test_expect_success 'a cached .deb that differs from the lock is deleted and fetched again' '
	apt_etc && echo good >good.deb && serve linux-source-9.9 9.9.1-1 good.deb &&
	mkdir -p debs && echo garbage >bad.deb && cp bad.deb debs/p.deb && echo "linux-source-9.9 9.9.1-1 $(sum good.deb)" >lock &&
	cp lock lock.before && fetch_ >out 2>err &&
	test_cmp good.deb debs/p.deb && test_cmp lock.before lock &&
	echo "fetch-debian: debs/p.deb: sha256 $(sum bad.deb), expected $(sum good.deb) (lock: linux-source-9.9 9.9.1-1); deleting it and fetching it again" >want &&
	test_cmp want err && test_grep "apt-get .* download linux-source-9.9=9.9.1-1$" apt-called
'
test_expect_success 'a cached .deb the mirror serves again as it is, not as locked, is refused in one line' '
	apt_etc && echo garbage >bad.deb && serve linux-source-9.9 9.9.1-1 bad.deb &&
	mkdir -p debs && cp bad.deb debs/p.deb && echo "linux-source-9.9 9.9.1-1 $zeros" >lock && cp lock lock.before &&
	test_must_fail 1 fetch_ 2>err &&
	echo "fetch-debian: debs/p.deb: sha256 $(sum bad.deb), expected $zeros (lock: linux-source-9.9 9.9.1-1); fetched again, still differs: refused (remove its line from lock only if you trust the new file)" >want &&
	tail -1 err >got && test_cmp want got && test_cmp lock.before lock &&
	test ! -e debs/p.deb && test -z "$(ls debs)"
'
test_expect_success 'a first download that differs from a line already locked is refused, nothing kept' '
	apt_etc && echo other >other.deb && serve linux-source-9.9 9.9.1-1 other.deb && rm -rf debs &&
	echo "linux-source-9.9 9.9.1-1 $zeros" >lock &&
	test_must_fail 1 fetch_ 2>err &&
	test_grep "^fetch-debian: debs/p.deb: sha256 $(sum other.deb), expected $zeros (lock: linux-source-9.9 9.9.1-1); refused" err &&
	test -z "$(ls debs)"
'

# A stand-in apt for build/tools/bump: the suite serves NEW (madison), and a
# download writes a .deb (or fails when FAKE_APT=nodownload).
fake_apt() {
	mkdir -p fakebin &&
	cat >fakebin/apt-cache <<-'F' &&
	#!/bin/sh
	echo " linux-source-7.3 | $FAKE_NEW | http://mirror.example/debian trixie-backports/main amd64 Packages"
	F
	cat >fakebin/apt-get <<-'F' &&
	#!/bin/sh
	for a in "$@"; do last=$a; done
	case $last in
	update) exit 0 ;;
	*=*) [ "$FAKE_APT" != nodownload ] || { echo "E: no such file" >&2; exit 100; }
	     v=${last#*=}; echo "deb of $v" >"linux-source-7.3_${v}_all.deb" ;;
	esac
	F
	chmod +x fakebin/apt-cache fakebin/apt-get && rm -rf cache/debs &&
	mkdir -p versions/7.3 && echo p.patch >versions/7.3/series && : >versions/7.3/p.patch &&
	cat >m.yaml <<-Y &&
	series:
	  # a comment that stays
	  - name: "7.3"
	    source:
	      debian: {package: linux-source-7.3, version: 7.3.4-1~bpo13+1, suite: trixie-backports}
	    stack: versions/7.3
	    fixes: {A: upstream v5.9-rc2, B: stack}
	Y
	echo "linux-source-7.3 7.3.4-1~bpo13+1 1111111111111111111111111111111111111111111111111111111111111111" >lock &&
	cp m.yaml m.before && cp lock lock.before
}
bump_() {
	PATH="$trash/fakebin:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm KIT_SUITES=trixie-backports \
		bump 7.3 m.yaml lock
}
test_expect_success 'bump moves a +/~ version in place and records the new hash' '
	apt_etc && fake_apt && FAKE_NEW=7.3.5-1~bpo13+1 bump_ >out &&
	sed "s/7.3.4-1~bpo13+1/7.3.5-1~bpo13+1/" m.before >m.want && test_cmp m.want m.yaml &&
	sum=$(echo "deb of 7.3.5-1~bpo13+1" | sha256sum | cut -d" " -f1) &&
	echo "linux-source-7.3 7.3.5-1~bpo13+1 $sum" >lock.want && test_cmp lock.want lock
'
test_expect_success 'a bump whose download fails changes neither the matrix nor the lock' '
	apt_etc && fake_apt && FAKE_NEW=7.3.5-1~bpo13+1 FAKE_APT=nodownload test_must_fail 1 bump_ 2>err &&
	test_grep "apt-get download linux-source-7.3=7.3.5-1~bpo13+1 failed" err &&
	test_cmp m.before m.yaml && test_cmp lock.before lock
'
test_expect_success 'bump on the newest version changes nothing' '
	apt_etc && fake_apt && FAKE_NEW=7.3.4-1~bpo13+1 bump_ >out &&
	test_grep "already the newest" out && test_cmp m.before m.yaml && test_cmp lock.before lock
'
test_expect_success 'bump never moves a pin back to an older version a mirror behind serves' '
	apt_etc && fake_apt && FAKE_NEW=7.3.3-2~bpo13+1 test_must_fail 1 bump_ >out 2>err &&
	echo "bump: m.yaml: 7.3: the newest linux-source-7.3 trixie-backports serves is 7.3.3-2~bpo13+1, older than the pin 7.3.4-1~bpo13+1 (a mirror behind?); nothing changed: try again later or another mirror (KIT_DEBIAN_MIRROR)" >want &&
	test_cmp want err && test_cmp m.before m.yaml && test_cmp lock.before lock && test ! -e cache/debs
'
test_expect_success 'bump writes the lock only under the flock every writer of it takes' '
	apt_etc && fake_apt &&
	(exec 8<. && flock 8 && FAKE_NEW=7.3.5-1~bpo13+1 PATH="$trash/fakebin:$PATH" KIT_APT_ETC=etc KIT_HOST_CODENAME=bookworm \
		KIT_SUITES=trixie-backports test_must_fail 124 timeout 5 bump 7.3 m.yaml lock >out 2>&1) &&
	test_cmp m.before m.yaml && test_cmp lock.before lock &&
	FAKE_NEW=7.3.5-1~bpo13+1 bump_ >out && test_grep "^linux-source-7.3 7.3.5-1~bpo13+1 " lock
'
test_expect_success 'bump of a series with no debian source is one clear error' '
	fake_apt && sed -i "s/      debian: .*/      tree: {env: KIT_SRC_7_3}/" m.yaml &&
	test_must_fail 1 bump 7.3 m.yaml lock 2>err && test_grep "has no debian source to bump" err
'
test_done
