/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dl_idle_qos

#if !defined(_TRACE_DL_IDLE_QOS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DL_IDLE_QOS_H

#include <linux/tracepoint.h>

/**
 * dl_idle_qos_limit - the deadline-derived idle latency limit changed
 * @rule1_ns:	min(D - C) over the admitted tasks (U64_MAX: none)
 * @rule2_ns:	(cap * M - U) / sum(1/P) (U64_MAX: none)
 * @limit_ns:	min(@rule1_ns, @rule2_ns)
 * @nr_tasks:	admitted SCHED_DEADLINE tasks
 * @reserved_ppb: U, bandwidth of the tasks and DL servers, in 10^-9 CPU
 * @capacity_ppb: cap * M of rule 2 (the smallest root domain's), in 10^-9 CPU
 * @target_us:	the value to publish as cpu_latency_qos request (-1: none)
 */
TRACE_EVENT(dl_idle_qos_limit,
	    TP_PROTO(u64 rule1_ns, u64 rule2_ns, u64 limit_ns,
		     unsigned int nr_tasks, u64 reserved_ppb, u64 capacity_ppb,
		     s32 target_us),

	    TP_ARGS(rule1_ns, rule2_ns, limit_ns, nr_tasks, reserved_ppb,
		    capacity_ppb, target_us),

	    TP_STRUCT__entry(__field(u64,		rule1_ns)
			     __field(u64,		rule2_ns)
			     __field(u64,		limit_ns)
			     __field(unsigned int,	nr_tasks)
			     __field(u64,		reserved_ppb)
			     __field(u64,		capacity_ppb)
			     __field(s32,		target_us)
	    ),

	    TP_fast_assign(__entry->rule1_ns	 = rule1_ns;
			   __entry->rule2_ns	 = rule2_ns;
			   __entry->limit_ns	 = limit_ns;
			   __entry->nr_tasks	 = nr_tasks;
			   __entry->reserved_ppb = reserved_ppb;
			   __entry->capacity_ppb = capacity_ppb;
			   __entry->target_us	 = target_us;
	    ),

	    TP_printk("rule1_ns=%llu rule2_ns=%llu limit_ns=%llu nr_tasks=%u reserved_ppb=%llu capacity_ppb=%llu target_us=%d",
		      __entry->rule1_ns, __entry->rule2_ns, __entry->limit_ns,
		      __entry->nr_tasks, __entry->reserved_ppb,
		      __entry->capacity_ppb, __entry->target_us)
);

#endif /* _TRACE_DL_IDLE_QOS_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
