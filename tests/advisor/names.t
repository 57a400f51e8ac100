# Transcript: names that reach terminals and Markdown (issue 27.5). A name with a control
# character (the terminal-title sequence ESC ] 0 ; pwn BEL) is refused where it comes in, and the
# error shows it as \x1b ... \x07, never raw; a name with '|' or HTML is escaped in Markdown.

### import: a target with a control character is refused, shown visibly
$$ printf 'target,threads,tps,avg_latency_ms\na\033]0;pwn\007b,1,100,10\na\033]0;pwn\007b,2,190,10.5\n' > "$TRANSCRIPT_TMP/esc.csv"
$ import $TRANSCRIPT_TMP/esc.csv
? 3
! a target with a control character, 'a\x1b]0;pwn\x07b'

### a point record with a control character in its config is refused, shown visibly
$$ printf '{"schema": "sizeup.point/1", "target": "t", "config": "c\\u001b[2Jx", "workload": "oltp_read_write", "threads": 1, "tps": 100, "source": {"kind": "table", "file": "x.csv", "line": 2}}\n' > "$TRANSCRIPT_TMP/esc.jsonl"
$ fit $TRANSCRIPT_TMP/esc.jsonl
? 3
! esc.jsonl:1:
! $.config: a control character in "c\x1b[2Jx"

### a catalog id with a control character is refused
$$ sed 's/"id": "idc-nvme"/"id": "idc\\u0007nvme"/' data/catalogs/published.json > "$TRANSCRIPT_TMP/bel.json"
$ catalog check $TRANSCRIPT_TMP/bel.json
? 3
! $.configs[0].id: a control character in "idc\x07nvme"

### rank --markdown escapes '|' and HTML in configuration ids
$$ sed 's/"idc-nvme"/"idc|<img src=x onerror=alert(1)>"/g' data/catalogs/published.json > "$TRANSCRIPT_TMP/md.json"
$$ sed 's/^idc-nvme,/"idc|<img src=x onerror=alert(1)>",/' data/published/rds-idc-vs-cloud-4c16g.csv > "$TRANSCRIPT_TMP/md.csv"
$ rank --points $TRANSCRIPT_TMP/md.csv --catalog $TRANSCRIPT_TMP/md.json --slo avg:20ms --markdown
? 0
> | 1 | idc\|&lt;img src=x onerror=alert(1)> | 1437 |
>! <img

### a query suite with a control character in its suite name is refused whole
$$ printf 'suite,query,seconds\ntp\033]0;x\007ch,q1,1.5\n' > "$TRANSCRIPT_TMP/suite.csv"
$ rank --suite $TRANSCRIPT_TMP/suite.csv
? 1
! a name with a control character, 'tp\x1b]0;x\x07ch': remove it

### a catalog's free text with a bidirectional override is refused too
$$ sed 's/"name": "published-tables"/"name": "published-\\u202etables"/' data/catalogs/published.json > "$TRANSCRIPT_TMP/bidi.json"
$ catalog check $TRANSCRIPT_TMP/bidi.json
? 3
! a control character in "published-\xe2\x80\xaetables"

### a value typed on the command line is shown visibly in a usage error, never acted on
$ rank --slo $'p95:\x1b]0;pwn\x07'
? 2
! --slo: 'p95:\x1b]0;pwn\x07' is not a latency target

### an unknown option with an escape sequence in its name: shown visibly too
$ rank $'--no\x1b[2Jsuch'
? 2
! unknown option '--no\x1b[2Jsuch'

### a file name with an escape sequence in any message: shown visibly (util/ttysafe.h)
$ study $'/nonexist\x1b[31m.json'
? 3
! /nonexist\x1b[31m.json: cannot open

### a C1 control (CSI, U+009B in UTF-8) in a file name: shown visibly too
$ rank --points $'/no\xc2\x9bfile'
? 1
! /no\xc2\x9bfile: cannot open
