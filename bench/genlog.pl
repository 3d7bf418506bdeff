#!/usr/bin/perl
# bench/genlog.pl - a large audit log, the same bytes on every run, made
# from copies of a real one (samples/audit/apache2-sysv.log).
#
# usage: perl bench/genlog.pl [COPIES] [LOG] >big.log
#   COPIES  how many copies (default 40: about 65 MB from the sample)
#
# Copy K (0-based) is the log with
#   - its times moved K*100000 s and its serials K*100000 on, so that the
#     events stay in order and distinct;
#   - every pid=/ppid=/opid= and the child pid a successful fork, vfork,
#     clone or clone3 returns (exit=) moved K*20000 on, so that no copy's
#     process inherits another copy's history;
#   - the word "apache2" renamed "apache2-cK" in every quoted value, so that
#     each copy adds its own domains (<kernel> /etc/init.d/apache2-cK ...)
#     and its own file entries (/etc/apache2-cK/...);
#   - in every fourth copy, the name "apache2 cK" (with a space), and every
#     quoted value holding it written in hex as auditd writes such names,
#     so that the collector's hex decoding is exercised too.
# Everything else (records, order, failures, sockets, signals) is copied.
use strict;
use warnings;

my $copies = shift // 40;
my $log = shift // do {
	my $here = $0 =~ s{/[^/]*$}{}r;
	"$here/../samples/audit/apache2-sysv.log";
};
open(my $in, '<:raw', $log) or die "genlog: $log: $!\n";
my @lines = <$in>;
close($in);
binmode(STDOUT, ':raw');

my %forks = map { $_ => 1 } (56, 57, 58, 435);

for my $k (0 .. $copies - 1) {
	my $hex = ($k % 4) == 3;
	my $name = $hex ? "apache2 c$k" : "apache2-c$k";
	for my $line (@lines) {
		my $l = $line;
		# The fields auditd wrote come before the 0x1d separator; the
		# enriched ones after it are kept as they are.
		my ($raw, $rest) = split(/\x1d/, $l, 2);
		$raw =~ s{audit\((\d+)\.(\d+):(\d+)\)}
			{sprintf("audit(%d.%s:%d)", $1 + $k * 100000, $2, $3 + $k * 100000)}e;
		$raw =~ s{\b(pid|ppid|opid)=(\d+)}{"$1=" . ($2 + $k * 20000)}ge;
		if ($raw =~ /\bsyscall=(\d+) success=yes exit=(\d+)/ && $forks{$1}) {
			$raw =~ s{\bexit=(\d+)}{"exit=" . ($1 + $k * 20000)}e;
		}
		$raw =~ s{(\w+)="([^"]*)"}{field($1, $2, $name, $hex)}ge;
		print defined $rest ? "$raw\x1d$rest" : $raw;
	}
}

sub field {
	my ($key, $val, $name, $hex) = @_;
	return "$key=\"$val\"" unless $val =~ s/apache2/$name/g;
	return "$key=\"$val\"" unless $hex;
	return "$key=" . uc(unpack('H*', $val));
}
