#!/usr/bin/perl
# gen.pl - write hostile audit logs and policies to stdout, for the
# tests in tests/golden/t_hostile_*.sh.  Everything here is synthetic:
# records are shaped like auditd 3.0.9's (log_format = RAW, x86_64), with
# only the fields histmac reads, so big inputs stay small on disk and are
# made at test time instead of being committed (see README.md).
#
# usage: perl gen.pl CASE [ARGS]
#   argv BYTES            one execve whose argv holds BYTES decoded bytes:
#                         50,000 aN args and one aN[i] split arg, spread over
#                         EXECVE records of at most 7,500 bytes as the
#                         kernel writes them; then one open
#   bytes                 255 opens: /tmp/hb/N-<byte N>-x for N = 1..255,
#                         every name= hex-encoded; then one name holding
#                         all of 0x01..0xff (but '/')
#   deeppath N            opens of paths of N components: /d/d/.../f,
#                         then ./x/.. pairs that normalise away, then ..
#                         past the root
#   names N               N opens of distinct names by one process
#   execchain N PROG      N nested execs of PROG (each by the child of
#                         the previous), then one open by the last
#   pidreuse N            pid 500 alternating between parents 1000 and
#                         1001 (different domains) and ppid 1 (another
#                         audit session), N times: each incarnation opens
#                         a file named after its parent, the last ones
#                         exec
#   forkchain N           N nested clone()s below one exec, then an open
#                         and an exec by the deepest child
#   interleave GAP        two events whose records are interleaved, with
#                         GAP records of other events between each
#   inject                an exec and an open whose comm, exe, program and
#                         path hold newlines and policy lines
#   groups N              exception policy with acl_group 0..N-1
#   longline MB           domain policy whose 2nd line is MB MiB long
use strict;
use warnings;

binmode STDOUT;
my $serial = 1000;
my $out = '';

sub flush_out { print $out; $out = ''; }

sub rec {
	my ($type, $ser, $body) = @_;
	my $sec = 1700000000 + int($ser / 1000);
	my $ms = sprintf('%03d', $ser % 1000);
	$out .= "type=$type msg=audit($sec.$ms:$ser): $body\n";
	flush_out() if length($out) > (1 << 20);
}

sub hexs { return uc unpack('H*', $_[0]); }

# SYSCALL record: syscall number, pid, ppid, items, exe, extra a0..a3,
# audit session (1 unless ses).
sub sysrec {
	my (%a) = @_;
	my $exit = defined $a{exit} ? $a{exit} : 3;
	rec('SYSCALL', $a{ser}, "arch=c000003e syscall=$a{nr} success=yes " .
	    "exit=$exit a0=" . ($a{a0} // 'ffffff9c') . " a1=" .
	    ($a{a1} // '0') . " a2=0 a3=0 items=$a{items} ppid=$a{ppid} " .
	    "pid=$a{pid} auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 " .
	    "sgid=0 fsgid=0 tty=(none) ses=" . ($a{ses} // 1) . " comm=\"h\" exe=\"$a{exe}\" " .
	    "key=(null)");
}

sub open_ev {
	my ($pid, $ppid, $exe, $name, $hex, $ses) = @_;
	my $ser = ++$serial;
	sysrec(ser => $ser, nr => 257, items => 1, pid => $pid,
		ppid => $ppid, exe => $exe, ses => $ses);
	rec('CWD', $ser, 'cwd="/"');
	my $n = $hex ? hexs($name) : "\"$name\"";
	rec('PATH', $ser, "item=0 name=$n inode=1 dev=fe:00 mode=0100644 " .
	    "ouid=0 ogid=0 rdev=00:00 nametype=NORMAL");
	rec('PROCTITLE', $ser, 'proctitle=68');
}

sub exec_ev {
	my ($pid, $ppid, $prog, $args) = @_;
	my $ser = ++$serial;
	sysrec(ser => $ser, nr => 59, items => 2, pid => $pid,
		ppid => $ppid, exe => $prog, exit => 0);
	$args //= [ $prog ];
	rec('EXECVE', $ser, 'argc=' . scalar(@$args) . ' ' .
	    join(' ', map { "a$_=\"$args->[$_]\"" } 0 .. $#$args));
	rec('CWD', $ser, 'cwd="/"');
	rec('PATH', $ser, "item=0 name=\"$prog\" inode=2 dev=fe:00 " .
	    "mode=0100755 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL");
	rec('PATH', $ser, 'item=1 name="/lib64/ld-linux-x86-64.so.2" ' .
	    'inode=3 dev=fe:00 mode=0100755 ouid=0 ogid=0 rdev=00:00 ' .
	    'nametype=NORMAL');
	rec('PROCTITLE', $ser, 'proctitle=68');
}

sub clone_ev {
	my ($pid, $ppid, $child, $exe) = @_;
	my $ser = ++$serial;
	sysrec(ser => $ser, nr => 56, items => 0, pid => $pid,
		ppid => $ppid, exe => $exe, exit => $child, a0 => '1200011');
	rec('PROCTITLE', $ser, 'proctitle=68');
}

my %cases;

# argv: 50,000 small args "aNNNNNNNNN" (10 bytes each; fewer when BYTES
# is small), then one argument split in 4,000-byte chunks a<k>[i] for the
# rest.  argv[0] counts too, so argv holds exactly BYTES bytes.
$cases{argv} = sub {
	my ($bytes) = @_;
	my $ser = ++$serial;
	my $small = int($bytes / 2 / 10);
	$small = 50000 if $small > 50000;
	my $big = $bytes - $small * 10;
	my $argc = $small + 2;
	my @fields = ('a0="/bin/hostile-argv"');
	my $have = length('/bin/hostile-argv');
	for my $i (1 .. $small) {
		push @fields, sprintf('a%d="a%09d"', $i, $i);
	}
	my $k = $small + 1;
	my $left = $big - $have;
	$left = 1 if $left < 1;
	push @fields, sprintf('a%d_len=%d', $k, $left);
	my $i = 0;
	while ($left > 0) {
		my $n = $left > 4000 ? 4000 : $left;
		push @fields, sprintf('a%d[%d]="%s"', $k, $i++, 'z' x $n);
		$left -= $n;
	}
	sysrec(ser => $ser, nr => 59, items => 2, pid => 200, ppid => 1,
		exe => '/bin/hostile-argv', exit => 0);
	my $line = "argc=$argc";
	for my $f (@fields) {
		if (length($line) + length($f) + 1 > 7500) {
			rec('EXECVE', $ser, $line);
			$line = $f;
		} else {
			$line .= " $f";
		}
	}
	rec('EXECVE', $ser, $line);
	rec('CWD', $ser, 'cwd="/"');
	rec('PATH', $ser, 'item=0 name="/bin/hostile-argv" inode=2 ' .
	    'dev=fe:00 mode=0100755 nametype=NORMAL');
	rec('PATH', $ser, 'item=1 name="/lib64/ld-linux-x86-64.so.2" ' .
	    'inode=3 dev=fe:00 mode=0100755 nametype=NORMAL');
	rec('PROCTITLE', $ser, 'proctitle=68');
	open_ev(200, 1, '/bin/hostile-argv', '/tmp/after-argv');
};

$cases{bytes} = sub {
	exec_ev(300, 1, '/bin/hostile-bytes');
	for my $b (1 .. 255) {
		open_ev(300, 1, '/bin/hostile-bytes',
			sprintf('/tmp/hb/%d-%s-x', $b, chr($b)), 1);
	}
	my $all = join('', map { chr } grep { $_ != 0x2f } 1 .. 255);
	open_ev(300, 1, '/bin/hostile-bytes', "/tmp/hb/all-$all", 1);
};

# The kernel passes at most 4,095 bytes of name (PATH_MAX) and of CWD;
# joined, that is up to 4,096 components.  Serial order: see README.md.
$cases{deeppath} = sub {
	my $x = '/bin/hostile-deep';
	my $rel = sub {
		my ($cwd, $name) = @_;
		my $ser = ++$serial;
		sysrec(ser => $ser, nr => 257, items => 1, pid => 400,
		       ppid => 1, exe => $x);
		rec('CWD', $ser, "cwd=\"$cwd\"");
		rec('PATH', $ser, "item=0 name=\"$name\" inode=1 dev=fe:00 " .
		    'mode=0100644 nametype=NORMAL');
		rec('PROCTITLE', $ser, 'proctitle=68');
	};
	exec_ev(400, 1, $x);
	# 2,047 components in one absolute name: learned as it is
	open_ev(400, 1, $x, ('/d' x 2046) . '/f');
	# CWD of 2,047 + name of 2,048 components = 8,190 bytes: learned
	$rel->('/c' x 2047, ('d/' x 2047) . 'f');
	# CWD and name of 4,095 bytes each: one byte over HM_MAX_WORD once
	# joined, "name too long"
	$rel->('/c' x 2046 . '/cc', ('d/' x 2046) . 'ddd');
	# 4,095 components, all empty: /f
	open_ev(400, 1, $x, ('/' x 4094) . 'f');
	# 1,364 components of .. above the root: /up
	open_ev(400, 1, $x, ('/..' x 1364) . '/up');
	# . and x/.. that normalise away: /tmp/deep
	open_ev(400, 1, $x, '/tmp' . ('/.' x 1000) . ('/x/..' x 400) .
		'/deep');
	# 4,096 components in one name (8,192 bytes): more than the kernel
	# passes, a bad field
	open_ev(400, 1, $x, ('/d' x 4095) . '/f');
};

# Only the fields the collector needs, and EOE to end each event: a
# million events make 280 MB instead of 500.
$cases{names} = sub {
	my ($n) = @_;
	exec_ev(500, 1, '/bin/hostile-names');
	for my $i (1 .. $n) {
		my $ser = ++$serial;
		rec('SYSCALL', $ser, 'arch=c000003e syscall=257 success=yes ' .
		    'exit=3 a0=ffffff9c a1=0 items=1 ppid=1 pid=500 ' .
		    'exe="/bin/hostile-names"');
		rec('PATH', $ser, sprintf('item=0 name="/tmp/m/f%07d" ' .
		    'nametype=NORMAL', $i));
		rec('EOE', $ser, '');
	}
};

$cases{execchain} = sub {
	my ($n, $prog) = @_;
	my $pid = 10000;
	exec_ev($pid, 1, $prog);
	for my $i (1 .. $n - 1) {
		exec_ev($pid + 1, $pid, $prog);
		$pid++;
	}
	open_ev($pid, $pid - 1, $prog, '/tmp/chain-end');
};

$cases{pidreuse} = sub {
	my ($n) = @_;
	exec_ev(1000, 1, '/bin/parent-a');
	exec_ev(1001, 1, '/bin/parent-b');
	my @pp = (1000, 1001, 1);
	my %name = (1000 => 'a', 1001 => 'b', 1 => 'init');
	for my $i (0 .. $n - 1) {
		my $pp = $pp[$i % 3];
		# the orphan: a daemon's session, so not the process before
		# it reparented (an exe= that changed proves nothing)
		open_ev(500, $pp, $pp == 1 ? '/bin/orphan' : "/bin/parent-$name{$pp}",
			"/tmp/reuse-$name{$pp}", 0, $pp == 1 ? 4294967295 : 1);
	}
	exec_ev(500, 1000, '/bin/child');
	exec_ev(500, 1001, '/bin/child');
};

$cases{forkchain} = sub {
	my ($n) = @_;
	my $pid = 100000;
	exec_ev($pid, 1, '/bin/forker');
	for my $i (1 .. $n) {
		clone_ev($pid, $i == 1 ? 1 : $pid - 1, $pid + 1,
			 '/bin/forker');
		$pid++;
	}
	open_ev($pid, $pid - 1, '/bin/forker', '/tmp/fork-end');
	exec_ev($pid, $pid - 1, '/bin/fork-leaf');
};

# Two opens (serials A and B) whose records alternate, GAP other events
# between each record; auditd does this when a task sleeps while emitting.
$cases{interleave} = sub {
	my ($gap) = @_;
	my $sa = ++$serial;
	my $sb = ++$serial;
	my @ra = ([ 'SYSCALL', "arch=c000003e syscall=257 success=yes exit=3 a0=ffffff9c a1=0 a2=0 a3=0 items=1 ppid=1 pid=600 auid=0 uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ses=1 comm=\"h\" exe=\"/bin/il-a\" key=(null)" ],
		  [ 'CWD', 'cwd="/"' ],
		  [ 'PATH', 'item=0 name="/tmp/il-a" inode=1 dev=fe:00 mode=0100644 nametype=NORMAL' ],
		  [ 'PROCTITLE', 'proctitle=68' ]);
	my @rb = map { [ @$_ ] } @ra;
	$rb[0][1] =~ s/pid=600/pid=601/; $rb[0][1] =~ s/il-a/il-b/;
	$rb[2][1] =~ s/il-a/il-b/;
	for my $i (0 .. $#ra) {
		rec($ra[$i][0], $sa, $ra[$i][1]);
		for (1 .. $gap) {
			open_ev(602, 1, '/bin/il-noise', '/tmp/il-noise');
		}
		rec($rb[$i][0], $sb, $rb[$i][1]);
	}
};

# Names that try to inject policy lines: comm, exe, the program and an
# object path holding newlines, "<kernel>" and "file read /etc/shadow",
# all hex-encoded as auditd writes such values.
$cases{inject} = sub {
	my $evil = "/tmp/x\n<kernel> /evil\nfile read /etc/shadow\n";
	my $ser = ++$serial;
	my $h = hexs($evil);
	rec('SYSCALL', $ser, 'arch=c000003e syscall=59 success=yes exit=0 ' .
	    'a0=0 a1=0 a2=0 a3=0 items=2 ppid=1 pid=800 auid=0 uid=0 ' .
	    'gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 tty=(none) ' .
	    "ses=1 comm=$h exe=$h key=(null)");
	rec('EXECVE', $ser, "argc=2 a0=$h a1=$h");
	rec('CWD', $ser, 'cwd="/"');
	rec('PATH', $ser, "item=0 name=$h inode=2 dev=fe:00 mode=0100755 " .
	    'nametype=NORMAL');
	rec('PATH', $ser, 'item=1 name="/lib64/ld-linux-x86-64.so.2" ' .
	    'inode=3 dev=fe:00 mode=0100755 nametype=NORMAL');
	rec('PROCTITLE', $ser, "proctitle=$h");
	$ser = ++$serial;
	rec('SYSCALL', $ser, 'arch=c000003e syscall=257 success=yes exit=3 ' .
	    'a0=ffffff9c a1=0 a2=0 a3=0 items=1 ppid=1 pid=800 auid=0 ' .
	    'uid=0 gid=0 euid=0 suid=0 fsuid=0 egid=0 sgid=0 fsgid=0 ' .
	    "tty=(none) ses=1 comm=$h exe=$h key=(null)");
	rec('CWD', $ser, 'cwd="/"');
	rec('PATH', $ser, "item=0 name=$h inode=1 dev=fe:00 mode=0100644 " .
	    'nametype=NORMAL');
	rec('PROCTITLE', $ser, "proctitle=$h");
};

$cases{groups} = sub {
	my ($n) = @_;
	for my $g (0 .. $n - 1) {
		$out .= "acl_group $g file read /tmp/g$g\n";
	}
};

$cases{longline} = sub {
	my ($mb) = @_;
	print "<kernel>\nfile read /";
	my $chunk = 'a' x (1 << 20);
	print $chunk for 1 .. $mb;
	print "\nfile read /after-long-line\n";
};

my $case = shift @ARGV // '';
die "usage: perl gen.pl CASE [ARGS] (see the top of this file)\n"
	unless $cases{$case};
$cases{$case}->(@ARGV);
flush_out();
