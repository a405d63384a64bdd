

// A badly indented file with tabs, trailing blanks and long continuation lines.   
module {
		handshake.func @messy(%a: i32,
		                     %b: i32,
		                     %ctrl: none) -> (i32, none) {
  %0 = arith.addi %a,
        %b : i32
			%c:2 = fork [2] %ctrl : none  
        sink %c#1 : none
				


  return %0, %c#0 : i32,
    none
      // closing the function
}
// between the functions
      func.func @f(%x: i32) -> i32 {
  %r = scf.execute_region -> i32 {
  cf.br ^bb1
      ^bb1:
  scf.yield %x : i32
  }
        return %r : i32
        }
  }



