# SPDX-License-Identifier: GPL-2.0
#
# lp.sh - helpers of the latency_parser VM tests, sourced after lib.sh.

# lp_available - the kernel has the tracer
lp_available() {
	grep -qw latency_parser "$TRACEFS/available_tracers"
}

# lp_require - skip the whole test when the kernel lacks the tracer
lp_require() {
	if ! lp_available; then
		echo "1..0 # SKIP the kernel has no latency_parser tracer"
		exit 0
	fi
}

# lp_preempt_mode - the preemption model the kernel runs, as debugfs's
# sched/preempt shows it, the model in parentheses: "(lazy)" for lazy
# preemption. Where PREEMPT_DYNAMIC excludes PREEMPT_RT (Debian 12's
# 6.1-rt) there is no sched/preempt: the RT patch set's own lazy
# preemption is the sched feature PREEMPT_LAZY (NO_PREEMPT_LAZY when off).
lp_preempt_mode() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
	if [ -r /sys/kernel/debug/sched/preempt ]; then
		cat /sys/kernel/debug/sched/preempt
	elif grep -qw PREEMPT_LAZY /sys/kernel/debug/sched/features 2>/dev/null; then
		echo "rt (lazy) (the RT patch set's sched feature PREEMPT_LAZY)"
	fi
}

# lp_instance NAME - a new instance running the tracer; prints its path
lp_instance() {
	local dir=$TRACEFS/instances/$1

	rmdir "$dir" 2>/dev/null
	mkdir "$dir" || return 1
	echo latency_parser > "$dir/current_tracer" || return 1
	echo "$dir"
}

# lp_interrupt_events DIR 0|1 - the tracer's IRQ, vector and NMI execution
# events in DIR's buffer, off or on
lp_interrupt_events() {
	local ev

	for ev in irq_execution vector_execution nmi_execution; do
		echo "$2" > "$1/events/latency_parser/$ev/enable" || return 1
	done
}

# lp_local_timer - the local timer's execution event and id, in LP_TIMER_EVENT
# and LP_TIMER_ID, and a regex of its lines of a trace in LP_TIMER_RE:
# x86_64's local timer is system vector 236 (vector_execution); arm64's is
# the architected timer's IRQ (irq_execution), whose number /proc/interrupts
# gives (its virtual timer under qemu, "arch_timer")
lp_local_timer() {
	case $(uname -m) in
	aarch64)
		LP_TIMER_EVENT=irq_execution
		LP_TIMER_ID=$(awk '/arch_timer/ { sub(":", "", $1); print $1; exit }' /proc/interrupts) ;;
	*)
		LP_TIMER_EVENT=vector_execution
		LP_TIMER_ID=236 ;;
	esac
	LP_TIMER_RE="$LP_TIMER_EVENT: +$LP_TIMER_ID start [0-9]+ duration [0-9]+ ns"
	[ -n "$LP_TIMER_ID" ]
}

# lp_remove DIR - stop and remove an instance
lp_remove() {
	echo nop > "$1/current_tracer" 2>/dev/null
	rmdir "$1"
}

# lp_max DIR CPU VAR - one value of DIR/latency_parser/max
lp_max() {
	awk -v cpu="$2" -v var="$3" '
		/^#/ { for (i = 2; i <= NF; i++) col[$i] = i - 1; next }
		$1 == cpu { print $(col[var]); found = 1 }
		END { if (!found) print "none" }' "$1/latency_parser/max"
}

# lp_hist_total DIR VAR CPU_COLUMN - the sum of a histogram column (1 = first CPU)
lp_hist_total() {
	awk -v c="$3" '!/^#/ { n += $(c + 1) } END { print n + 0 }' "$1/latency_parser/hist/$2"
}

# irq_inside DIR CPU START POID - the IRQ (and NMI) time of CPU that started
# inside the window [START, START + POID + that time]: the window is net of
# it, so its end is found by a fixed point over the executions
irq_inside() {
	awk -v c="[$(printf %03d "$2")]" -v s="$3" -v p="$4" '
		/ (irq|vector|nmi)_execution: / {
			onc = 0
			for (i = 1; i <= NF; i++) if ($i == c) onc = 1
			if (!onc) next
			for (i = 1; i < NF; i++) {
				if ($i == "start") st[n] = $(i + 1)
				if ($i == "duration") du[n] = $(i + 1)
			}
			n++
		}
		END {
			irq = 0
			do {
				prev = irq
				irq = 0
				for (k = 0; k < n; k++)
					if (st[k] >= s && st[k] <= s + p + prev)
						irq += du[k]
			} while (irq != prev)
			print irq
		}' "$1/trace"
}

# delay_test MODE US CPU [BURST] - one run of the kernel's window oracle.
# The module stays loaded until the next run (or delay_done), so that the
# trace still resolves the addresses of its code.
delay_test() {
	delay_done
	modprobe preemptirq_delay_test test_mode="$1" delay="$2" \
		cpu_affinity="$3" burst_size="${4:-1}"
}

# delay_done - unload the oracle
delay_done() {
	if grep -qw preemptirq_delay_test /proc/modules; then
		rmmod preemptirq_delay_test
	fi
}
