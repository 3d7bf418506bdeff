# shellcheck shell=bash
# fleet_lib.sh - build the stream a central auditd writes when every host
# forwards its events with audisp-remote: each record prefixed with the
# sending host's node=NAME (auditd's name_format), all hosts' records
# interleaved in time order, each host's own order kept.

# fleet_host NAME MS PIDS LOG: LOG as host NAME sends it, its clock MS
# milliseconds later and (PIDS > 0) its pids moved up by PIDS.
fleet_host() {
	perl -pe 'BEGIN { ($n, $ms, $pd) = splice @ARGV, 0, 3 }
		s/msg=audit\((\d+)\.(\d+):/sprintf("msg=audit(%.3f:", $1 + ($2 + $ms) \/ 1000)/e;
		s/\b(pid|ppid|opid)=(\d+)/"$1=" . ($2 + $pd)/ge if $pd;
		$_ = "node=$n $_"' "$@"
}

# fleet_merge LOG...: one stream, ordered by record time.
fleet_merge() {
	perl -e 'my @r;
		for my $f (@ARGV) {
			open my $h, "<", $f or die "$f: $!";
			my $i = 0;
			while (<$h>) { /msg=audit\(([\d.]+):/; push @r, [$1, $f, $i++, $_] }
		}
		print map { $_->[3] } sort { $a->[0] <=> $b->[0] ||
			$a->[1] cmp $b->[1] || $a->[2] <=> $b->[2] } @r' "$@"
}

# fleet_check DIR: learning the merged stream of DIR/web1.log and
# DIR/web2.log gives the merge of the two hosts' policies.
fleet_check() {
	local d=$1
	fleet_merge "$d/web1.log" "$d/web2.log" >"$d/fleet.log"
	grep -q '^node=web1 ' "$d/fleet.log" && grep -q '^node=web2 ' "$d/fleet.log" ||
		die "the stream lacks a host"
	"$HISTMAC" learn -q -p "$d/stream" -i "$d/fleet.log" 2>/dev/null
	"$HISTMAC" learn -q -p "$d/web1" -i "$d/web1.log" 2>/dev/null
	"$HISTMAC" learn -q -p "$d/web2" -i "$d/web2.log" 2>/dev/null
	"$HISTMAC" merge "$d/web1" "$d/web2" -o "$d/merged" >/dev/null
	diff -u "$d/merged/domain_policy.conf" "$d/stream/domain_policy.conf" >&2 ||
		die "learning the fleet's stream differs from merging its hosts"
}
