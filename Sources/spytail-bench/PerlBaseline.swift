/// The Perl baseline the benchmark compares with: the same parse, multiline join, filter and JSON work as the
/// benchmark's config, in the most direct Perl. Written to the work folder at each run.
enum PerlBaseline {
    static let script = #"""
        #!/usr/bin/perl
        # spytail-bench baseline: log lines on stdin, JSON lines on stdout. A line that starts with white space
        # joins the record before it (after "\n"); DEBUG records and messages containing "heartbeat" are dropped.
        use strict;
        use warnings;
        my %named = ('"' => '\\"', '\\' => '\\\\', "\n" => '\\n', "\r" => '\\r', "\t" => '\\t');
        sub escape {
            my ($text) = @_;
            $text =~ s/(["\\\x00-\x1f])/defined $named{$1} ? $named{$1} : sprintf('\\u%04x', ord $1)/ge;
            return $text;
        }
        my ($time, $level, $tags, $message);
        sub flush_record {
            return unless defined $message;
            if ($level ne 'DEBUG' && index($message, 'heartbeat') < 0) {
                print '{"timestamp":"', $time, '","level":"', $level, '","tags":"', $tags, '","message":"', escape($message), "\"}\n";
            }
            undef $message;
        }
        while (my $line = <STDIN>) {
            chomp $line;
            if (defined $message && $line =~ /^\s/) { $message .= "\n" . $line; next; }
            flush_record();
            if ($line =~ /^(\S+) (DEBUG|INFO|WARN|ERROR) ((?:\[[a-z]+\] )*)(.*)$/) { ($time, $level, $tags, $message) = ($1, $2, $3, $4); }
            else { ($time, $level, $tags, $message) = ('', '', '', $line); }
        }
        flush_record();
        """#
}
