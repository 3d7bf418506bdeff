#!/bin/sh
# A script chain with a helper: this script runs a helper script it
# writes, which runs coreutils and reads and writes files.
set -e
if [ -n "${HM_MISBEHAVE:-}" ]; then
	# the round trip's misbehaviours (run only with histmac's policy
	# enforcing): no redirection here may need a new permission
	r=0
	if (read -r x </etc/shadow); then r=$((r | 1)); fi
	if /usr/bin/od /dev/null; then r=$((r | 2)); fi
	exit $r
fi
d=/tmp/hm-chain
mkdir -p $d
cat >$d/helper <<'EOH'
#!/bin/sh
echo "helper $1" >>/tmp/hm-chain/log
cat /etc/hostname >/dev/null
ls /etc/hm-none 2>/dev/null || true
EOH
chmod 755 $d/helper
$d/helper one
$d/helper two
sort $d/log >$d/sorted
wc -l <$d/sorted
