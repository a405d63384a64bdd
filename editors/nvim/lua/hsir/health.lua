--- :checkhealth hsir: the server binary and its version, how this Neovim starts the server,
--- filetype detection for `.mlir`, and the running clients.

local M = {}

-- vim.health from 0.8 (start/ok/... from 0.10, report_* before); the `health` module in 0.7.
local health = vim.health or require('health')
local start = health.start or health.report_start
local ok = health.ok or health.report_ok
local info = health.info or health.report_info
local warn = health.warn or health.report_warn
local fail = health.error or health.report_error

local function version_string()
  local v = vim.version()
  return ('%d.%d.%d'):format(v.major, v.minor, v.patch)
end

local paths = {
  ['vim.lsp.enable'] = 'vim.lsp.config + vim.lsp.enable (Neovim 0.11+), configuration in lsp/hsir.lua',
  ['vim.lsp.start'] = 'vim.lsp.start on a FileType autocmd (Neovim 0.8 to 0.10)',
  ['vim.lsp.start_client'] = 'vim.lsp.start_client + vim.lsp.buf_attach_client on a FileType autocmd (Neovim 0.7)',
}

local function check_setup(hsir)
  start('hsir: setup')
  if vim.fn.has('nvim-0.7') == 0 then
    fail('Neovim ' .. version_string() .. ' is too old: hsir needs 0.7 or later')
    return
  end
  if hsir.started_with == nil then
    if vim.lsp.is_enabled and vim.lsp.is_enabled('hsir') then
      ok(('Neovim %s: the server starts with vim.lsp.enable("hsir") (lsp/hsir.lua)'):format(version_string()))
      warn('require("hsir").setup() has not been called: default options, and no :Hsir commands')
    else
      warn('require("hsir").setup() has not been called: the server does not start and there are no :Hsir commands')
    end
    return
  end
  ok(('Neovim %s: the server starts with %s'):format(version_string(), paths[hsir.started_with]))
end

local function check_binary(hsir)
  start('hsir: language server')
  local bufnr = vim.api.nvim_get_current_buf()
  local file = vim.api.nvim_buf_get_name(bufnr)
  local root = (file ~= '' and vim.bo[bufnr].buftype == '') and hsir.root_of_path(file) or vim.fn.getcwd()
  local argv, problem = hsir.resolve_cmd(root)
  if not argv then
    fail(problem)
    return
  end
  local output = vim.fn.system({ argv[1], '--version' })
  if vim.v.shell_error ~= 0 then
    fail(('`%s --version` failed (exit %d): %s'):format(argv[1], vim.v.shell_error, vim.trim(output)))
    return
  end
  ok(('found %s: %s'):format(argv[1], vim.trim(output)))
  info('command: ' .. table.concat(argv, ' '))
  local settings = hsir.server_settings()
  if next(settings) ~= nil then
    info('settings: ' .. vim.fn.json_encode(settings))
  end
end

-- Whether `.mlir` files get the `mlir` filetype, and from where.
local function check_filetype()
  start('hsir: filetype detection')
  if vim.filetype and vim.filetype.match then
    local found_ok, filetype = pcall(vim.filetype.match, { filename = 'example.mlir' })
    if found_ok and filetype == 'mlir' then
      ok('`*.mlir` files are `mlir` (vim.filetype)')
      return
    end
  end
  local found_ok, autocmds = pcall(vim.api.nvim_get_autocmds, { group = 'filetypedetect', pattern = '*.mlir' })
  if found_ok and #autocmds > 0 then
    ok('`*.mlir` files are `mlir` (ftdetect/mlir.vim)')
  elseif vim.fn.exists('did_load_filetypes') == 0 then
    fail('filetype detection is off: add `filetype on` to your configuration')
  else
    fail('`*.mlir` files get no filetype: is the plugin on the runtimepath before `filetype on`?')
  end
end

local function check_clients(hsir)
  start('hsir: clients')
  local clients = hsir.clients()
  if #clients == 0 then
    info('no hsir client is running; open an `.mlir` file to start one')
    return
  end
  for _, client in ipairs(clients) do
    local server = client.server_info or {}
    ok(('client %d: %s %s, workspace folder %s'):format(
      client.id,
      server.name or 'hsir',
      server.version or '',
      client.config.root_dir or '(none)'
    ))
  end
  if hsir.last_cmd then
    info('started with: ' .. table.concat(hsir.last_cmd, ' '))
  end
end

function M.check()
  local hsir = require('hsir')
  check_setup(hsir)
  check_binary(hsir)
  check_filetype()
  check_clients(hsir)
end

return M
