#!/usr/bin/perl
# bench/interleave.pl - a log as several writers would interleave it: the
# records of each K consecutive events are written round-robin (the first
# record of each, then the second of each, ...), so an event's records
# are up to K-1 lines apart, as when K tasks are audited at once.  Each
# event keeps its records in their order; nothing is added or lost.
#
# usage: perl bench/interleave.pl [K] <log >interleaved.log
#   K  events written at once (default 2: two writers)
# Lines are grouped into events by their msg=audit(TIME:SERIAL) stamp
# (and node=); a line without one stays where it is, between groups.
use strict;
use warnings;

my $k = shift // 2;
die "interleave: K must be at least 1\n" unless $k =~ /^\d+$/ && $k >= 1;
binmode(STDIN, ':raw');
binmode(STDOUT, ':raw');

my @group;		# events of the group being read: [stamp, lines...]
my $last = '';

sub flush_group {
	my $more = 1;
	for (my $i = 0; $more; $i++) {
		$more = 0;
		for my $ev (@group) {
			next if $i + 1 > $#$ev;
			print $ev->[$i + 1];
			$more = 1;
		}
	}
	@group = ();
}

while (my $line = <STDIN>) {
	my ($stamp) = $line =~ /^((?:node=\S+ )?)type=\S+ msg=audit\(([^)]*)\)/
		? ("$1$2") : (undef);
	if (!defined $stamp) {
		flush_group();
		print $line;
		$last = '';
		next;
	}
	if ($stamp ne $last) {
		flush_group() if @group == $k;
		push @group, [$stamp];
		$last = $stamp;
	}
	push @{$group[-1]}, $line;
}
flush_group();
