-- The minimal configuration of the headless tests (lsp/tests/nvim.rs): this plugin on the
-- runtimepath, filetype detection on, notifications recorded, and setup() with the options the
-- test passes as JSON in HSIR_TEST_OPTIONS.

local here = debug.getinfo(1, 'S').source:sub(2)
local plugin = vim.fn.fnamemodify(here, ':p:h:h')
vim.opt.runtimepath:prepend(plugin)
vim.cmd('filetype on')

-- Every notification, for the scenarios to assert on, and still shown in :messages.
_G.hsir_test_notes = {}
local show = vim.notify
vim.notify = function(message, level, opts)
  table.insert(_G.hsir_test_notes, { message = tostring(message), level = level or vim.log.levels.INFO })
  return show(message, level, opts)
end

-- Every echo (the plugin's progress lines, and the default vim.notify's messages), likewise.
_G.hsir_test_echoes = {}
local echo = vim.api.nvim_echo
vim.api.nvim_echo = function(chunks, history, opts)
  local text = {}
  for _, chunk in ipairs(chunks) do
    table.insert(text, tostring(chunk[1]))
  end
  table.insert(_G.hsir_test_echoes, table.concat(text))
  return echo(chunks, history, opts)
end

-- HSIR_TEST_HIDE_ENABLE=1 makes 0.11 take the path of 0.8 to 0.10 (vim.lsp.start).
if os.getenv('HSIR_TEST_HIDE_ENABLE') == '1' then
  vim.lsp.enable = nil
end

local options = os.getenv('HSIR_TEST_OPTIONS')
require('hsir').setup(options and options ~= '' and vim.fn.json_decode(options) or {})
