# SPDX-License-Identifier: GPL-2.0
# For tests that start servers (test/unit/farm.t, test/farm/farm): on 127.0.0.1
# only, on a port the kernel picks.
# shellcheck shell=sh

# free_port: a free port on 127.0.0.1 (the kernel's pick, taken again at once).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# listening PORT: wait up to 10 s for a server to listen on 127.0.0.1:PORT.
listening() {
	nl_i=0
	while ! python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$1" 2>/dev/null; do
		nl_i=$((nl_i + 1))
		[ $nl_i -lt 100 ] || { echo "nothing listens on 127.0.0.1:$1" >&2; return 1; }
		sleep 0.1
	done
}
