// A stray end of a resource block, at the top level and inside a region.
#-}
module {
  #-}
}
