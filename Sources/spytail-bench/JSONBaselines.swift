/// W3's baselines: the same decode, filter (level WARNING/ERROR or http.status >= 500) and encode as
/// spytail's W3 config, in Perl with JSON::XS (Debian libjson-xs-perl) and in jq.
enum JSONBaselines {
    static let perl = #"""
        #!/usr/bin/perl
        # spytail-bench W3 baseline: JSON lines on stdin; the lines whose level is WARNING or ERROR, or whose
        # http.status is 500 or more, out as records {timestamp, category, message, fields} (JSON::XS both ways).
        use strict;
        use warnings;
        use JSON::XS;
        my $json = JSON::XS->new->utf8;
        while (my $line = <STDIN>) {
            my $r = eval { $json->decode($line) };
            if (!defined $r || ref $r ne 'HASH') {
                print $json->encode({ message => $line, parseError => "$@" }), "\n";
                next;
            }
            my $level = $r->{level} // '';
            my $status = ref $r->{http} eq 'HASH' ? ($r->{http}{status} // 0) : 0;
            next unless $level eq 'WARNING' || $level eq 'ERROR' || $status >= 500;
            my $timestamp = delete $r->{ts};
            my $message = delete $r->{msg};
            my $category = $level eq 'ERROR' ? 'error' : $level eq 'WARNING' ? 'warning' : $level eq 'DEBUG' ? 'debug' : 'info';
            print $json->encode({ timestamp => $timestamp, category => $category, message => $message, fields => $r }), "\n";
        }
        """#

    static let jqFilter = #"select(.level == "WARNING" or .level == "ERROR" or .http.status >= 500)"#

    /// spytail's W3 config: a json parser, categories from `level`, one jsonl output keeping what the filter keeps.
    static func config(input: String, output: String) -> String {
        #"""
        {
          "sources": [ { "name": "app", "include": ["\#(input)"], "rotated": false, "parser": "app" } ],
          "parsers": { "app": { "format": "json" } },
          "parse": {
            "categories": [
              { "name": "error", "match": { "field": "level", "equals": "ERROR" } },
              { "name": "warning", "match": { "field": "level", "equals": "WARNING" } },
              { "name": "debug", "match": { "field": "level", "equals": "DEBUG" } },
              { "name": "info", "default": true }
            ]
          },
          "outputs": [ { "type": "file", "path": "\#(output)", "format": "jsonl",
                         "where": { "any": [ { "field": "level", "in": ["WARNING", "ERROR"] }, { "field": "http.status", "gte": 500 } ] } } ]
        }
        """#
    }
}
