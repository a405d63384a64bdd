-- Headless scenarios for lsp/tests/nvim.rs, run after test/init.lua against the real
-- `hsir lsp`. They act as a user would (open files, hover, run the :Hsir commands), wait with
-- timeouts, and write what they saw as JSON to HSIR_TEST_RESULT; the Rust test asserts on it.
-- Every step runs under pcall and Neovim always exits: 0 when no step failed, 1 otherwise.
--
-- HSIR_TEST_SCENARIO: `main` (diagnostics, settings, hover, Generate RTL, the graph, buffer
-- placement, health), `cosim` (:HsirCosim passing, failing, and cancelled with :HsirCancel),
-- `workspace` (a `${workspaceFolder}` command), `missing` (no server binary).
-- HSIR_TEST_WORKSPACE: the folder holding the `src/` files (and `ir/`, `c/` for `cosim`).

local scenario = os.getenv('HSIR_TEST_SCENARIO') or 'main'
local workspace = os.getenv('HSIR_TEST_WORKSPACE') or vim.fn.getcwd()
local result_path = os.getenv('HSIR_TEST_RESULT') or 'hsir-test-result.json'

local v = vim.version()
local result = {
  scenario = scenario,
  nvim = ('%d.%d.%d'):format(v.major, v.minor, v.patch),
  errors = {},
}

local TIMEOUT = 20000

local function wait(what, condition, ms)
  if not vim.wait(ms or TIMEOUT, condition, 20) then
    error(('timed out after %d ms waiting for %s'):format(ms or TIMEOUT, what), 0)
  end
end

local function open(relative)
  vim.cmd('edit ' .. vim.fn.fnameescape(workspace .. '/' .. relative))
  return vim.api.nvim_get_current_buf()
end

local function hsir_clients(bufnr)
  return require('hsir').clients(bufnr)
end

local function diagnostics(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out, {
      code = d.code or lsp.code or vim.NIL,
      line = d.lnum,
      severity = d.severity,
      message = d.message,
    })
  end
  return out
end

local function count(bufnr, code, severity)
  local n = 0
  for _, d in ipairs(diagnostics(bufnr)) do
    if d.code == code and (severity == nil or d.severity == severity) then
      n = n + 1
    end
  end
  return n
end

local function notes_after(first)
  local out = {}
  for i = first + 1, #_G.hsir_test_notes do
    table.insert(out, _G.hsir_test_notes[i])
  end
  return out
end

-- Runs an Ex command and waits for the notification it ends with (any, or one at `level`).
local function command_notes(command, level)
  local before = #_G.hsir_test_notes
  vim.cmd(command)
  wait('a notification from :' .. command, function()
    for _, note in ipairs(notes_after(before)) do
      if level == nil or note.level == level then
        return true
      end
    end
    return false
  end)
  return notes_after(before)
end

local function floating_window()
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      return win
    end
  end
  return nil
end

local function line_index(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local column = line:find(needle, 1, true)
    if column then
      return i - 1, column - 1
    end
  end
  error('no line contains ' .. needle, 0)
end

local function step(name, body)
  local ok, err = pcall(body)
  if not ok then
    table.insert(result.errors, name .. ': ' .. tostring(err))
  end
end

-- The diagnostics of the HS1101 fixture, as the server publishes them.
local function fixture_diagnostics(key)
  local bufnr = open('src/HS1101_undefined_value.mlir')
  result.filetype = vim.bo[bufnr].filetype
  wait('HS1101 diagnostics', function()
    return count(bufnr, 'HS1101') > 0
  end)
  result[key] = diagnostics(bufnr)
  local client = hsir_clients(bufnr)[1]
  result.root_dir = client and client.config.root_dir or vim.NIL
  return bufnr
end

local function checkhealth()
  vim.cmd('checkhealth hsir')
  local bufnr = vim.api.nvim_get_current_buf()
  wait('the health report', function()
    return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n'):find('hsir: filetype', 1, true) ~= nil
  end, 5000)
  result.health = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n')
  vim.cmd('tabclose')
end

local scenarios = {}

function scenarios.main()
  local hsir = require('hsir')
  local fixture
  step('diagnostics', function()
    fixture = fixture_diagnostics('diagnostics')
  end)

  step('hover', function()
    local bufnr = open('src/kernel.mlir')
    wait('the client on kernel.mlir', function()
      local client = hsir_clients(bufnr)[1]
      return client ~= nil and client.initialized ~= false
    end)
    local line = line_index(bufnr, '%i_back = buffer')
    local _, column = line_index(bufnr, 'buffer %i_next')
    vim.api.nvim_win_set_cursor(0, { line + 1, column })
    vim.lsp.buf.hover()
    wait('the hover window', function()
      return floating_window() ~= nil
    end)
    local win = floating_window()
    result.hover = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
    vim.api.nvim_win_close(win, true)
  end)

  local three
  step('generate rtl at the cursor', function()
    three = open('src/three.mlir')
    wait('the client on three.mlir', function()
      return hsir_clients(three)[1] ~= nil
    end)
    local line = line_index(three, '%kk = mux')
    vim.api.nvim_win_set_cursor(0, { line + 1, 2 })
    local before = hsir.last_rtl
    result.rtl_cursor_notes = command_notes('HsirGenerateRtl')
    wait('the answer of hsir.generateRtl', function()
      return hsir.last_rtl ~= before
    end, 1000)
    result.rtl_cursor = { answer = hsir.last_rtl, opened = vim.api.nvim_buf_get_name(0) }
  end)

  step('settings at run time', function()
    hsir.update({ settings = { diagnostics = { severity = { HS1101 = 'hint' } } }, rtl_output_dir = 'rtl-explicit' })
    wait('HS1101 as hints', function()
      return count(fixture, 'HS1101') > 0 and count(fixture, 'HS1101', vim.diagnostic.severity.HINT) == count(fixture, 'HS1101')
    end)
    result.diagnostics_after_update = diagnostics(fixture)
  end)

  step('generate rtl by name', function()
    vim.cmd('only')
    vim.api.nvim_set_current_buf(three)
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    local before = hsir.last_rtl
    result.rtl_named_notes = command_notes('HsirGenerateRtl @accumulate')
    wait('the answer of hsir.generateRtl', function()
      return hsir.last_rtl ~= before
    end, 1000)
    result.rtl_named = { answer = hsir.last_rtl, opened = vim.api.nvim_buf_get_name(0) }
  end)

  step('graph and buffer placement', function()
    vim.cmd('only')
    vim.api.nvim_set_current_buf(three)
    local before = #_G.hsir_test_notes
    local hsir = require('hsir')
    -- The picture goes to a viewer by default; here the viewer is a command that records the
    -- file it was given, as xdg-open would be given it.
    result.graph_open_default = hsir.options.graph_open
    local opened = vim.fn.tempname()
    hsir.update({ graph_open = { 'sh', '-c', 'printf %s "$1" > "$0.part" && mv "$0.part" "$0"', opened } })
    vim.cmd('HsirGraph @sum_loop')
    wait('the graph to be written', function()
      for _, note in ipairs(notes_after(before)) do
        if note.message:find('wrote the graph to', 1, true) then
          return true
        end
      end
      return false
    end)
    wait('the viewer to be started', function()
      return vim.fn.filereadable(opened) == 1
    end)
    result.graph_notes = notes_after(before)
    local path = vim.fn.readfile(opened)[1] or ''
    result.graph = {
      path = path,
      first = vim.fn.readfile(path, '', 1)[1] or '',
      buffer = vim.api.nvim_buf_get_name(0),
    }
    hsir.update({ graph_open = 'viewer' })
  end)

  step('place buffers', function()
    vim.cmd('only')
    local loop = open('src/sum_loop.mlir')
    wait('the client on sum_loop.mlir', function()
      return hsir_clients(loop)[1] ~= nil
    end)
    local count_buffers = function()
      local n = 0
      for _, line in ipairs(vim.api.nvim_buf_get_lines(loop, 0, -1, false)) do
        if line:find('%%buf%d+ = buffer ') then
          n = n + 1
        end
      end
      return n
    end
    result.buffers_before = count_buffers()
    local line = line_index(loop, '%more = cmpi')
    vim.api.nvim_win_set_cursor(0, { line + 1, 2 })
    result.place_notes = command_notes('HsirPlaceBuffers fpga20')
    wait('the placed buffers in the buffer', function()
      return count_buffers() > 0
    end, 5000)
    result.placement = {
      buffers = count_buffers(),
      modified = vim.bo[loop].modified,
      answer = hsir.last_placement or vim.NIL,
    }
  end)

  step('checkhealth', checkhealth)
end

-- :HsirCosim in `file` with the cursor on the line holding `needle`; waits for the answer and
-- returns the answer, the notifications and the echoed progress lines it gave.
local function cosim(file, needle, arguments, done)
  local hsir = require('hsir')
  vim.cmd('only')
  local bufnr = open(file)
  wait('the client on ' .. file, function()
    return hsir_clients(bufnr)[1] ~= nil
  end)
  local line, column = line_index(bufnr, needle)
  vim.api.nvim_win_set_cursor(0, { line + 1, column })
  local notes, echoes = #_G.hsir_test_notes, #_G.hsir_test_echoes
  local before = hsir.last_cosim
  vim.cmd('HsirCosim' .. arguments)
  if done then
    done()
  end
  wait('the answer of hsir.cosim', function()
    return hsir.last_cosim ~= before
  end, 60000)
  -- The verdict is a notification of its own, from the server.
  vim.wait(200)
  local progress = {}
  for i = echoes + 1, #_G.hsir_test_echoes do
    table.insert(progress, _G.hsir_test_echoes[i])
  end
  return { answer = hsir.last_cosim, notes = notes_after(notes), echoes = progress }
end

function scenarios.cosim()
  local export = 'ir/fir_LEGACY__handshake_export.mlir'
  step('cosim passes', function()
    -- No file given: the server finds c/fir.c.
    result.pass = cosim(export, '%38 = addi', '')
  end)
  step('cosim fails', function()
    result.fail = cosim('ir/fir_altered.mlir', '%38 = subi', ' c/fir.c')
  end)
  step('cosim cancelled', function()
    result.cancel = cosim(export, '%38 = addi', ' c/forever.c', function()
      wait('the C program running', function()
        for _, running in pairs(require('hsir').progress) do
          if running.message == 'running the C program' then
            return true
          end
        end
        return false
      end)
      vim.cmd('HsirCancel')
    end)
  end)
end

function scenarios.workspace()
  step('diagnostics', function()
    fixture_diagnostics('diagnostics')
  end)
  result.last_cmd = require('hsir').last_cmd or vim.NIL
end

function scenarios.missing()
  step('no server', function()
    local bufnr = open('src/HS1101_undefined_value.mlir')
    result.filetype = vim.bo[bufnr].filetype
    wait('the error about the missing server', function()
      for _, note in ipairs(_G.hsir_test_notes) do
        if note.level == vim.log.levels.ERROR then
          return true
        end
      end
      return false
    end, 5000)
    -- Give a client that should not exist the time to appear.
    vim.wait(300)
    result.clients = #hsir_clients()
    result.rtl_notes = command_notes('HsirGenerateRtl', vim.log.levels.ERROR)
  end)
  step('checkhealth', checkhealth)
end

local ok, err = pcall(function()
  local run = scenarios[scenario]
  if not run then
    error('no scenario ' .. scenario, 0)
  end
  run()
end)
if not ok then
  table.insert(result.errors, tostring(err))
end
result.started_with = require('hsir').started_with or vim.NIL
result.notes = _G.hsir_test_notes
result.messages = vim.fn.execute('messages')
result.lsp_log = vim.lsp.get_log_path()
local written, write_err = pcall(vim.fn.writefile, { vim.fn.json_encode(result) }, result_path)
if not written then
  io.stderr:write('hsir test: cannot write the result: ' .. tostring(write_err) .. '\n')
end
vim.cmd((ok and written and #result.errors == 0) and 'qall!' or 'cquit!')
