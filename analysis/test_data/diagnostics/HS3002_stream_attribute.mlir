// `step_op` is one of "+=", "-=", "*=", "/=", "<<=", ">>="; the continue condition
// (`cont_cond`, spelled `stop_cond` in older files) is one of "<", "<=", ">", ">=", "!=".
handshake.func @bad_step(%s: index, %t: index, %u: index, %ctrl: none) -> (index, i1, none) {
  // expected-error @+1 {{HS3002: `step_op` of `dataflow.stream` is `"%="`; it must be one of "+=", "-=", "*=", "/=", "<<=", ">>="}}
  %idx, %wc = dataflow.stream %s, %t, %u {step_op = "%=", cont_cond = "<"}
  return %idx, %wc, %ctrl : index, i1, none
}

// -----

handshake.func @bad_cond(%s: index, %t: index, %u: index, %ctrl: none) -> (index, i1, none) {
  // expected-error @+1 {{HS3002: `cont_cond` of `dataflow.stream` is `"=="`; it must be one of "<", "<=", ">", ">=", "!="}}
  %idx, %wc = dataflow.stream %s, %t, %u {step_op = "+=", cont_cond = "=="}
  return %idx, %wc, %ctrl : index, i1, none
}

// -----

handshake.func @bad_old_cond(%s: index, %t: index, %u: index, %ctrl: none) -> (index, i1, none) {
  // expected-error @+1 {{HS3002: `stop_cond` of `dataflow.stream` is `"<>"`}}
  %idx, %wc = dataflow.stream %s, %t, %u {step_op = "<<=", stop_cond = "<>"} : (index, index, index) -> (index, i1)
  return %idx, %wc, %ctrl : index, i1, none
}

// -----

// Valid: every operator, the older `stop_cond` spelling, and the defaults ("+=", "<") when
// the attributes are left out.
handshake.func @valid(%s: index, %t: index, %u: index, %ctrl: none) -> (index, i1, index, i1, index, i1, none) {
  %sf:3 = fork [3] %s : index
  %tf:3 = fork [3] %t : index
  %uf:3 = fork [3] %u : index
  %i0, %w0 = dataflow.stream %sf#0, %tf#0, %uf#0 {step_op = ">>=", cont_cond = "!="}
  %i1, %w1 = dataflow.stream %sf#1, %tf#1, %uf#1 {step_op = "*=", stop_cond = "<="}
  %i2, %w2 = dataflow.stream %sf#2, %tf#2, %uf#2
  return %i0, %w0, %i1, %w1, %i2, %w2, %ctrl : index, i1, index, i1, index, i1, none
}
