" MLIR files, for Neovim versions whose filetype detection does not know them (0.7). setfiletype
" leaves a filetype that something else already set.
autocmd BufRead,BufNewFile *.mlir setfiletype mlir
