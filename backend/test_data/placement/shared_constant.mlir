// A loop whose bound `%seven` comes from a `source`: its (added) eager fork hands each token to
// `cmpi` on the loop's recurrence and to `muli`, off the recurrence on a branch of `mux %i`, and
// takes the next only when both took theirs, so the two fire in lockstep. The MILPs' loop holds
// only the recurrence (`mux → addi → cmpi → cond_br → mux`), not `%seven` nor `muli`: at 4 ns
// they put the recurrence's two registers on `%i → addi` and `addi → cmpi` and no slot on the
// coupling, and the placed circuit deadlocks after 5 cycles (`cmpi` waits for `cond_br`, which
// waits for the mux's fork, which waits for `muli`, which waits for the next `%seven`, which
// waits for `cmpi`): the pattern of kernel_2mm_FTD's FPGA20 placement (docs/timing-model.md,
// "Placements that deadlock"). The capacity check after the MILPs finds it and adds one
// transparent slot on the circular wait; with no repair rounds the placement is refused.

// hsir-place: fpga20
// hsir-expect: slots=9 theta=0.5
// hsir-place: fpga20 repair=0

// hsir-sim: tokens=1
// expected-remark @+2 {{HS6006: the MILPs' placement of `@shared_constant` deadlocked in hardware}}
// expected-error @+1 {{HS6005: the placement of `@shared_constant` deadlocks in hardware}}
handshake.func @shared_constant(%start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["start"], resNames = ["out", "end"]} {
  %zero = constant %start {value = 0 : i32} : <>, <i32>
  %ctrl, %index = control_merge %start, %c_t : <>, <i1>
  %i = mux %index [%zero, %i_t] : <i1>, <i32>
  %src = source : <>
  %seven = constant %src {value = 7 : i32} : <>, <i32>
  %src1 = source : <>
  %one = constant %src1 {value = 1 : i32} : <>, <i32>
  %i1 = addi %i, %one : <i32>
  %more = cmpi ult, %i1, %seven : <i32>
  %i_t, %i_f = cond_br %more, %i1 : <i1>, <i32>
  %c_t, %c_f = cond_br %more, %ctrl : <i1>, <>
  %m = muli %i, %seven : <i32>
  sink %m : <i32>
  end %i_f, %c_f : <i32>, <>
}
