# Transcripts of `sizeup disk` command-line errors (tests/transcript.sh format). The runs
# themselves are tested in tests/probes/test_disk_cli.c.

### help goes to stdout, exit 0
$ disk --help
? 0
> Usage: sizeup disk --dir DIR [OPTIONS]
> --iodepth=LIST
> --fsync-mode=MODE
> --direct[=on|off]
> --allow-buffered
> 130 interrupted

### the top-level help lists the command
$ --help
? 0
> disk      disk probes

### --dir is required
$ disk --size 64M
? 2
! sizeup: --dir is required
! Try 'sizeup disk --help'.

### an unknown test
$ disk --dir /tmp --tests randread,bogus
? 2
! --tests takes a list of distinct tests from randread, randwrite, randrw, seqread, seqwrite, fsync, not 'randread,bogus'

### a test named twice
$ disk --dir /tmp --tests fsync,fsync
? 2
! --tests takes a list of distinct tests

### an empty item in --tests
$ disk --dir /tmp --tests randread,,fsync
? 2
! --tests takes a list of distinct tests

### queue depth 0
$ disk --dir /tmp --iodepth 1,0
? 2
! --iodepth takes a list of up to 16 queue depths in 1..1024, e.g. 1,4,16,32, not '1,0'

### a queue depth that is not a number
$ disk --dir /tmp --iodepth four
? 2
! --iodepth takes a list

### --size smaller than the random block size
$ disk --dir /tmp --size 8K --tests randread
? 2
! --size (8K) is smaller than the block size of randread (16K)

### --size smaller than the sequential block size
$ disk --dir /tmp --size 512K
? 2
! --size (512K) is smaller than the block size of seqread (1M)

### --size large enough when the sequential tests are not run
$ disk --dir /nonexistent-sizeup-dir --size 512K --tests randread,fsync
? 1
! /nonexistent-sizeup-dir: no such directory

### --size not a size
$ disk --dir /tmp --size lots
? 2
! --size takes a size > 0, e.g. 1G or 512M, not 'lots'

### a block size that is not whole sectors
$ disk --dir /tmp --block-size 1000
? 2
! --block-size takes a multiple of 512 bytes up to 64M, e.g. 16K, not '1000'

### a bad --seq-block-size
$ disk --dir /tmp --seq-block-size 0
? 2
! --seq-block-size takes a multiple of 512 bytes

### --rwmixread out of range
$ disk --dir /tmp --rwmixread 101
? 2
! --rwmixread takes a percentage 0..100, not '101'

### --fsync-mode
$ disk --dir /tmp --fsync-mode osync
? 2
! --fsync-mode takes fdatasync or fsync, not 'osync'

### --direct takes on or off
$ disk --dir /tmp --direct=maybe
? 2
! --direct takes on or off, not 'maybe'

### a bad duration
$ disk --dir /tmp --time soon
? 2
! --time takes a duration (unit ms, s, m or h; a bare number is seconds) up to 86400s, e.g. 30s, not 'soon'

### --time shorter than one interval
$ disk --dir /tmp --time 500ms
? 2
! --time must be at least one --interval (1s)

### --min-time longer than --time
$ disk --dir /tmp --time 10s --min-time 20s
? 2
! --min-time (20s) is longer than --time (10s)

### --precision out of range
$ disk --dir /tmp --precision 150%
? 2
! --precision takes a percentage or a fraction in (0, 1], e.g. 2%, not '150%'

### an interval below 10 ms
$ disk --dir /tmp --interval 1ms
? 2
! --interval must be at least 10ms

### an empty --target
$ disk --dir /tmp --target=
? 2
! --target takes a non-empty value, not ''

### a stray argument
$ disk --dir /tmp extra
? 2
! unexpected argument 'extra'

### an unknown option
$ disk --dir /tmp --numjobs 4
? 2
! unknown option '--numjobs'

### a missing directory: exit 1, nothing created
$ disk --dir /nonexistent-sizeup-dir --size 64M
? 1
! sizeup: /nonexistent-sizeup-dir: no such directory

### a file in place of the directory
$ disk --dir tests/transcript.sh --size 64M
? 1
! sizeup: tests/transcript.sh: not a directory
