-- The `vim.lsp.config` form of hsir's language server (Neovim 0.11+), found by
-- `vim.lsp.enable('hsir')`. It reads the options given to require('hsir').setup(), or the
-- defaults when setup() was not called.
return require('hsir').lsp_config()
