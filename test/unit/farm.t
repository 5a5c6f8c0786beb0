#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The compile farm and the shared cache, for real on this machine: lib.sh's
# kbuild (the kernel's make for every kernel and gate build) through ccache
# with distcc as its prefix, against a distccd, and with ccache's remote
# storage on a redis-server and on an HTTP store, all on 127.0.0.1 only,
# started here, bounded in time and stopped by PID.  The stand-in tree
# compiles three files the way kbuild does (absolute source paths, out of
# tree).  The whole-kernel proof (a bzImage byte-identical through the
# farm) is test/farm/farm, make check-farm: too long for make check.
. "$(dirname "$0")/lib.sh"
top=$TOP && . "$TOP/build/lib.sh"
. "$TOP/test/farm/net-lib.sh"

pids=
stop_servers() {
	for p in $pids; do kill "$p" 2>/dev/null || :; done
	for p in $pids; do wait "$p" 2>/dev/null || :; done
	pids=
}
trap 'stop_servers; rm -rf "$trash" "$run"' EXIT

# distccd drops root for its own user: its log lives where that user writes.
run=$(mktemp -d "${TMPDIR:-/tmp}/kit-farm.XXXXXX")
chmod 755 "$run"
mkdir "$run/distccd"
[ "$(id -u)" -ne 0 ] || chown distccd "$run/distccd" 2>/dev/null || :

command -v distccd >/dev/null && command -v distcc >/dev/null && test_set_prereq DISTCC
command -v redis-server >/dev/null && test_set_prereq REDIS

tree() {
	rm -rf "$1" && mkdir -p "$1" &&
	for f in a b c; do
		printf '#include <stdio.h>\n#define SAY(x) puts("%s " x " " __FILE__)\nint %s(void) { SAY("hello"); return %d; }\n' \
			"$f" "$f" "$(printf %s "$f" | od -An -tu1 | tr -d ' ')" >"$1/$f.c" || return 1
	done &&
	# A stand-in kernel tree: what kbuild gives it, it uses as kbuild does.
	printf '%s\n' 'all: $(O)/a.o $(O)/b.o $(O)/c.o' \
		'	echo "$(KBUILD_BUILD_TIMESTAMP) $(KBUILD_BUILD_USER) $(KBUILD_BUILD_HOST) $(KBUILD_BUILD_VERSION)" >$(O)/stamp' \
		'$(O)/%.o: %.c' '	$(CC) -O2 -Wp,-MMD,$(O)/$*.d -c $(CURDIR)/$< -o $@' >"$1/Makefile"
}
# build TREE OBJDIR CACHE (relative to here, made absolute as callers do)
build() {
	mkdir -p "$2" && KIT_CACHE=$PWD/$3 kbuild "$PWD/$1" "$PWD/$2" -s -j"$(kbuild_jobs)" >/dev/null
}

test_expect_success 'kbuild fixes the build stamp: timestamp, user, host and the build counter' '
	tree t && build t o c &&
	test "$(cat o/stamp)" = "@0 kit kit 1"
'
test_expect_success "without a farm the compiles are this machine's, -j its processors" '
	test "$(kbuild_jobs)" = "$(nproc)" && test -z "$(farm_note)"
'
test_expect_success "under make's jobserver a build takes no -j of its own, unless the pipe is not there or -j is forced" '
	test "$(MAKEFLAGS= kbuild_jflag)" = "-j$(nproc)" &&
	test -z "$(MAKEFLAGS="k -j2 --jobserver-auth=0,1" kbuild_jflag)" &&
	test "$(MAKEFLAGS="k -j2 --jobserver-auth=97,98" kbuild_jflag)" = "-j$(nproc)" &&
	test "$(MAKEFLAGS="k -j2 --jobserver-auth=0,1" KIT_JOBS=3 kbuild_jflag)" = -j3 &&
	printf "%s\n" "all: a b" "a b:" "	@echo \"\$(MAKEFLAGS)\" >\$@.flags" >js.mk &&
	printf "%s\n" "all:" "	+@top=$TOP && . $TOP/build/lib.sh && echo \"[\$\$(kbuild_jflag)]\" >jflag && make -s -f js.mk \$\$(kbuild_jflag) 2>warn" >top.mk &&
	env -u MAKEFLAGS -u MAKELEVEL make -s -j2 -f top.mk && test "$(cat jflag)" = "[]" && test_grep "jobserver-auth" a.flags &&
	! test -s warn
'
test_expect_success 'the farm sizes -j: the sum of its hosts, KIT_JOBS over all' '
	test "$(KIT_DISTCC_HOSTS="a/4 b/8" kbuild_jobs)" = 12 &&
	test "$(KIT_DISTCC_HOSTS="a/4 b/8" KIT_JOBS=3 kbuild_jobs)" = 3 &&
	test "$(KIT_DISTCC_HOSTS="a/4 b/8" KIT_CCACHE_REMOTE="redis://r:6379|connect-timeout=50" farm_note)" = \
		" on distcc a/4 b/8, ccache remote redis://r:6379"
'

dport=$(free_port)
if [ "${prereqs#* DISTCC }" != "$prereqs" ]; then
	timeout 300 distccd --daemon --no-detach --listen 127.0.0.1 --port "$dport" --allow 127.0.0.1 \
		--jobs 2 --log-level info --log-file "$run/distccd/log" &
	pids="$pids $!"
	listening "$dport" && test_set_prereq DISTCCD
fi

test_expect_success DISTCCD 'through the farm, every compile runs on distccd, objects byte for byte the local ones' '
	tree t && build t local cache-local &&
	KIT_DISTCC_HOSTS=127.0.0.1:$dport/2 DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 DISTCC_BACKOFF_PERIOD=0 \
		build t farm cache-farm &&
	test "$(grep -c "COMPILE_OK.*[abc]\.c$" "$run/distccd/log")" = 3 &&
	for f in a b c; do cmp local/$f.o farm/$f.o && cmp local/$f.d farm/$f.d || exit 1; done
'
test_expect_success DISTCCD 'a local ccache hit never reaches the farm' '
	: >"$run/distccd/log" &&
	KIT_DISTCC_HOSTS=127.0.0.1:$dport/2 DISTCC_FALLBACK=0 build t farm2 cache-farm &&
	! grep -q COMPILE_OK "$run/distccd/log" && cmp local/a.o farm2/a.o
'
test_expect_success DISTCCD 'a farm that is down: distcc compiles here and the build still passes' '
	rm -rf t2 && tree t2 && echo "int d(void) { return 4; }" >>t2/c.c &&
	KIT_DISTCC_HOSTS=127.0.0.1:1/2 build t2 down cache-down && test -f down/c.o
'
stop_servers

# ccache's lookups of one build, from its stats log.
stats() {
	KIT_CACHE=$PWD/$2 KIT_CCACHE_STATSLOG=$PWD/$3 kbuild "$PWD/$1" "$PWD/$4" -s >/dev/null
}
test_expect_success 'the stats line counts this build only: misses first, then local hits' '
	tree s && mkdir -p os1 os2 &&
	stats s cs miss.log os1 && test "$(ccache_line miss.log)" = "ccache 0/3 hits (0%)" &&
	stats s cs hit.log os2 && test "$(ccache_line hit.log)" = "ccache 3/3 hits (100%)" &&
	: >none.log && test -z "$(ccache_line none.log)" && test -z "$(ccache_line no-such.log)"
'
test_expect_success 'a miss compiles once, without running the preprocessor first (ccache depend mode)' '
	tree d && mkdir -p od && stats d cd dmiss.log od &&
	test "$(grep -c "^cache_miss$" dmiss.log)" = 3 && ! grep -q "^preprocessed_cache" dmiss.log &&
	test -s od/a.d
'

# A stand-in piggy.S: an assembler source that takes in a file (.incbin),
# as arch/x86/boot/compressed/piggy.S takes in the compressed kernel.
piggy() {
	rm -rf "$1" && mkdir -p "$1" && printf "%s\n" "$2" >"$1/payload" &&
	printf ".section .rodata\n.incbin \"payload\"\n" >"$1/piggy.S" &&
	printf "%s\n" "\$(O)/piggy.o: piggy.S payload" "	\$(CC) -Wp,-MMD,\$(O)/piggy.d -c \$(CURDIR)/piggy.S -o \$@" >"$1/Makefile"
}
test_expect_success 'an assembler source is built afresh: a file it .incbins is no dependency ccache sees' '
	piggy p "old kernel" && mkdir -p op1 && stats p cp p1.log op1 && objcopy -O binary -j .rodata op1/piggy.o p1.bin &&
	test "$(cat p1.bin)" = "old kernel" &&
	printf "%s\n" "new kernel" >p/payload && rm -f op1/piggy.o && stats p cp p2.log op1 &&
	objcopy -O binary -j .rodata op1/piggy.o p2.bin && test "$(cat p2.bin)" = "new kernel"
'

rport=$(free_port)
if [ "${prereqs#* REDIS }" != "$prereqs" ]; then
	timeout 300 redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
		--dir "$run" >"$run/redis.log" 2>&1 &
	pids="$pids $!"
	listening "$rport" && test_set_prereq REDISD
fi
test_expect_success REDISD 'a second runner with an empty cache gets remote hits from redis' '
	tree r1 && mkdir -p o1 o2 &&
	KIT_CCACHE_REMOTE=redis://127.0.0.1:$rport stats r1 first first.log o1 &&
	test "$(ccache_line first.log)" = "ccache 0/3 hits (0%)" &&
	rm -rf r2 && mkdir -p elsewhere && cp -r r1 elsewhere/r2 &&
	KIT_CCACHE_REMOTE=redis://127.0.0.1:$rport stats elsewhere/r2 second second.log o2 &&
	test "$(ccache_line second.log)" = "ccache 3/3 hits (100%), remote 3" &&
	for f in a b c; do cmp o1/$f.o o2/$f.o || exit 1; done
'

hport=$(free_port)
cat >"$run/store.py" <<-'P'
import os, sys, http.server
root = sys.argv[2]
class Store(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def path_(self):
        return os.path.join(root, os.path.normpath(self.path).lstrip("/").replace("..", "_"))
    def reply(self, code, body=b""):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def do_GET(self):
        try:
            with open(self.path_(), "rb") as f:
                self.reply(200, f.read())
        except OSError:
            self.reply(404)
    def do_PUT(self):
        data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        os.makedirs(os.path.dirname(self.path_()), exist_ok=True)
        with open(self.path_(), "wb") as f:
            f.write(data)
        self.reply(201)
    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (self.command, self.path))
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Store).serve_forever()
P
timeout 300 python3 "$run/store.py" "$hport" "$run/store" 2>"$run/store.log" &
pids="$pids $!"
listening "$hport" && test_set_prereq HTTPD
test_expect_success HTTPD 'and from an HTTP store' '
	tree h1 && mkdir -p oh1 oh2 &&
	KIT_CCACHE_REMOTE=http://127.0.0.1:$hport/cache stats h1 hfirst hfirst.log oh1 &&
	KIT_CCACHE_REMOTE=http://127.0.0.1:$hport/cache stats h1 hsecond hsecond.log oh2 &&
	test "$(ccache_line hsecond.log)" = "ccache 3/3 hits (100%), remote 3" &&
	test_grep "^PUT /cache/" "$run/store.log"
'
stop_servers

test_done
