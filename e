sizeup: --mix: --mix: 'oltp_read_write:0,oltp_point_select:1' is not a workload mix: expected WORKLOAD:WEIGHT,... with weights > 0, e.g. oltp_read_write:0.7,oltp_point_select:0.3
Try 'sizeup rank --help'.
