# Transcripts of the sizeup command itself.

### --help lists the commands and exit codes
$ --help
? 0
> Usage: sizeup COMMAND
> import
> 3    some input was rejected or incomplete

### --version
$ --version
? 0
> sizeup 0.1.0

### no command is misuse
$
? 2
> Usage: sizeup COMMAND

### unknown command
$ frobnicate
? 2
! sizeup: unknown command 'frobnicate'
! Try 'sizeup --help'.

### unknown top-level option
$ --frob
? 2
! unknown option '--frob'

### help for an unknown command
$ help frobnicate
? 2
! unknown command 'frobnicate'
