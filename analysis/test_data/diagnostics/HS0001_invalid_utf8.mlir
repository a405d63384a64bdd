// A Latin-1 byte where UTF-8 is required; the rest of the file is still analysed.
// expected-error @+1 {{HS0001: the file is not valid UTF-8}}
%0 = "test.op"() {name = "café"} : () -> i32
