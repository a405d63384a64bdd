--- hsir: the Neovim client of `hsir lsp`, the language server for dataflow-circuit MLIR
--- (Handshake, CIRCT pipelines, LOOM dataflow).
---
--- `setup()` records the options, starts the server for `mlir` buffers in the way the running
--- Neovim supports best, and defines the `:Hsir*` commands:
---
--- - 0.11 and later: the `vim.lsp.config` form (`lsp/hsir.lua` returns `lsp_config()`) and
---   `vim.lsp.enable('hsir')`;
--- - 0.8 to 0.10: `vim.lsp.start()` on a FileType autocmd;
--- - 0.7: `vim.lsp.start_client()` and `vim.lsp.buf_attach_client()` on a FileType autocmd.
---
--- The server is found once per workspace folder, so that a missing binary is reported by
--- name, with the setting that chooses it, instead of failing in the LSP log.

local M = {}

local uv = vim.uv or vim.loop

local defaults = {
  -- The server's command. `${workspaceFolder}` is the buffer's workspace folder; a first word
  -- without a slash is looked up on PATH.
  cmd = { 'hsir', 'lsp' },
  -- The server's settings (`diagnostics`, `rtl`), sent as initializationOptions and in
  -- workspace/didChangeConfiguration.
  settings = {},
  -- Where :HsirGenerateRtl writes, relative to the workspace folder; sets `rtl.outputDir`.
  rtl_output_dir = nil,
  -- How :HsirGenerateRtl opens the Verilog it wrote: 'split', 'vsplit', 'tabedit', 'edit', or
  -- false to leave it closed.
  rtl_open = 'split',
  -- How :HsirGraph shows the picture it wrote: 'viewer' (the system's viewer: vim.ui.open on
  -- 0.10+, else xdg-open or macOS's open), a command as a list to which the file is appended
  -- (`{ 'firefox' }`), 'split', 'vsplit', 'tabedit' or 'edit' for its text, or false.
  graph_open = 'viewer',
  filetypes = { 'mlir' },
  -- The workspace folder is the nearest ancestor holding the first of these that is found;
  -- else the file's own folder.
  root_markers = { '.git' },
  -- Passed on to the client: function(client, bufnr), and the client's capabilities.
  on_attach = nil,
  capabilities = nil,
}

--- The options in use (the defaults until `setup()` changes them).
M.options = vim.deepcopy(defaults)

--- How the server is started in this Neovim: 'vim.lsp.enable', 'vim.lsp.start' or
--- 'vim.lsp.start_client'; nil before `setup()`.
M.started_with = nil

--- The answer of the last `hsir.generateRtl` ({ top, folder, files, notes }), for scripts.
M.last_rtl = nil

--- The command line the last server was started with.
M.last_cmd = nil

local GENERATE_RTL = 'hsir.generateRtl'
local SHOW_GRAPH = 'hsir.showGraph'
local PLACE_BUFFERS = 'hsir.placeBuffers'
local COSIM = 'hsir.cosim'

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

-- Messages are shown from the main loop, not where they arise: an error notification inside an
-- autocmd or a command would otherwise become an exception in whatever script opened the file
-- or ran the command.
local function notify(message, level)
  vim.schedule(function()
    vim.notify('hsir: ' .. message, level or vim.log.levels.INFO, { title = 'hsir' })
  end)
end

-- Problems that would repeat for every buffer (a missing binary) are reported once each.
local reported = {}
local function notify_once(message, level)
  if not reported[message] then
    reported[message] = true
    notify(message, level)
  end
end

-- ---- settings ------------------------------------------------------------------------------

--- The settings the server receives: `settings`, with `rtl_output_dir` as `rtl.outputDir`.
function M.server_settings()
  local settings = vim.deepcopy(M.options.settings or {})
  if M.options.rtl_output_dir then
    settings.rtl = settings.rtl or {}
    settings.rtl.outputDir = M.options.rtl_output_dir
  end
  return settings
end

-- Empty settings are left out: an empty Lua table would be sent as `[]`, which is not an
-- object.
local function init_options()
  local settings = M.server_settings()
  if next(settings) == nil then
    return nil
  end
  return settings
end

-- The client's `settings` (what workspace/didChangeConfiguration carries, and what answers a
-- workspace/configuration request for the `hsir` section).
local function client_settings()
  local settings = M.server_settings()
  if next(settings) == nil then
    return {}
  end
  return { hsir = settings }
end

-- ---- workspace folder and command ----------------------------------------------------------

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

-- The nearest ancestor of `dir` (itself included) that holds one of `names`.
local function ancestor_with(dir, names)
  while true do
    for _, name in ipairs(names) do
      if exists(dir .. '/' .. name) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

--- The workspace folder of a file: for each marker in order (a list of markers counts as one
--- marker of equal priority), the nearest ancestor holding it; else the file's folder.
function M.root_of_path(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  for _, marker in ipairs(M.options.root_markers or {}) do
    local names = type(marker) == 'table' and marker or { marker }
    local found = ancestor_with(dir, names)
    if found then
      return found
    end
  end
  return dir
end

-- The file a buffer shows, or nil for buffers that are not files (help, terminals, URLs).
local function file_of(bufnr)
  if vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil
  end
  return name
end

--- The command line for a workspace folder, with `${workspaceFolder}` replaced and the
--- program found; or nil and a message saying what is missing and which setting to change.
function M.resolve_cmd(root)
  local cmd = M.options.cmd
  if type(cmd) == 'string' then
    cmd = { cmd }
  end
  if type(cmd) ~= 'table' or type(cmd[1]) ~= 'string' or cmd[1] == '' then
    local shown = vim.inspect(cmd)
    return nil, ('the `cmd` option must be a list such as { "hsir", "lsp" }, not %s'):format(shown)
  end
  root = root or vim.fn.getcwd()
  local argv = {}
  for i, word in ipairs(cmd) do
    argv[i] = word:gsub('%${workspaceFolder}', function()
      return root
    end)
  end
  if argv[1]:sub(1, 1) == '~' then
    argv[1] = vim.fn.expand(argv[1])
  end
  local program = vim.fn.exepath(argv[1])
  if program == '' then
    local what = argv[1]:find('/', 1, true) and 'is not an executable file' or 'is not on PATH'
    local where = ('`%s` %s'):format(argv[1], what)
    if argv[1] ~= cmd[1] then
      where = where .. (' (from `%s`, with ${workspaceFolder} = %s)'):format(cmd[1], root)
    end
    return nil,
      ('cannot start the language server: %s. Install it (`cargo install --path lsp` in the '
        .. 'hsir repository) or set the `cmd` option: '
        .. 'require("hsir").setup({ cmd = { "/path/to/hsir", "lsp" } })'):format(where)
  end
  argv[1] = program
  return argv
end

-- ---- what the server shows ----------------------------------------------------------------

-- LSP message types (Error, Warning, Info, Log) as vim.log levels.
local message_levels = {
  [1] = vim.log.levels.ERROR,
  [2] = vim.log.levels.WARN,
  [3] = vim.log.levels.INFO,
  [4] = vim.log.levels.INFO,
}

-- window/showMessage (a co-simulation's verdict, a placement that applied nothing) through
-- vim.notify, like the plugin's own messages: Neovim's handler echoes `LSP[hsir][Info] ...`
-- past vim.notify, where notification plugins never see it.
local function show_message(_, params)
  if type(params) ~= 'table' or type(params.message) ~= 'string' then
    return
  end
  notify((params.message:gsub('^hsir: ', '')), message_levels[params.type] or vim.log.levels.INFO)
end

--- The server's work in progress (a co-simulation, a placement), by `client_id:token`:
--- { client_id, token, title, message }. `:HsirCancel` cancels it.
M.progress = {}

-- $/progress: Neovim's handler first (it keeps `client.progress` and fires the autocmds that
-- statusline plugins read), then the step on the command line, since Neovim shows nothing
-- else while a command runs for seconds. The verdict that ends it is a message of its own.
local function show_progress(err, params, ctx, config)
  local default = vim.lsp.handlers['$/progress']
  local answer
  if default then
    answer = default(err, params, ctx, config)
  end
  local value = type(params) == 'table' and params.value
  if type(value) ~= 'table' then
    return answer
  end
  local key = ('%s:%s'):format(ctx.client_id, tostring(params.token))
  if value.kind == 'begin' then
    M.progress[key] = { client_id = ctx.client_id, token = params.token, title = value.title, message = value.message }
  elseif value.kind == 'report' and M.progress[key] then
    M.progress[key].message = value.message or M.progress[key].message
  elseif value.kind == 'end' then
    M.progress[key] = nil
  end
  local running = M.progress[key]
  if running then
    local text = 'hsir: ' .. tostring(running.title or 'working')
    if type(running.message) == 'string' and running.message ~= '' then
      text = text .. ': ' .. running.message
    end
    -- One line that fits: a longer one would ask to press ENTER.
    vim.api.nvim_echo({ { text:sub(1, math.max(vim.o.columns - 12, 20)) } }, false, {})
  end
  return answer
end

local handlers = {
  ['window/showMessage'] = show_message,
  ['$/progress'] = show_progress,
}

-- ---- starting the server -------------------------------------------------------------------

local function on_init(client)
  -- Neovim 0.11 sends the settings itself once the server is initialized; older versions do
  -- not, and the server should hear them the same way whichever editor starts it.
  if not has('0.11') and next(client.config.settings or {}) ~= nil then
    client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
  end
end

-- The client configuration shared by every start path, for one workspace folder.
local function client_config(root, argv)
  return {
    name = 'hsir',
    cmd = argv,
    root_dir = root,
    init_options = init_options(),
    settings = client_settings(),
    on_init = on_init,
    handlers = handlers,
    on_attach = M.options.on_attach,
    capabilities = M.options.capabilities,
  }
end

--- The `vim.lsp.config` form of the server (Neovim 0.11+); `lsp/hsir.lua` returns it. The
--- root_dir function reports a missing server instead of starting a client that cannot run.
function M.lsp_config()
  return {
    cmd = function(dispatchers, config)
      local argv, problem = M.resolve_cmd(config and config.root_dir)
      if not argv then
        error('hsir: ' .. problem)
      end
      M.last_cmd = argv
      return vim.lsp.rpc.start(argv, dispatchers, {
        cwd = config and config.cmd_cwd,
        env = config and config.cmd_env,
      })
    end,
    filetypes = M.options.filetypes,
    root_dir = function(bufnr, on_dir)
      local file = file_of(bufnr)
      if not file then
        return
      end
      local root = M.root_of_path(file)
      local argv, problem = M.resolve_cmd(root)
      if not argv then
        notify_once(problem, vim.log.levels.ERROR)
        return
      end
      on_dir(root)
    end,
    init_options = init_options(),
    settings = client_settings(),
    handlers = handlers,
    on_attach = M.options.on_attach,
    capabilities = M.options.capabilities,
  }
end

-- Neovim 0.7: one client per workspace folder, started with start_client.
local clients_by_root = {}

--- Starts (or reuses) the server for a buffer; used where vim.lsp.enable is not available.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local file = file_of(bufnr)
  if not file then
    return nil
  end
  local root = M.root_of_path(file)
  local argv, problem = M.resolve_cmd(root)
  if not argv then
    notify_once(problem, vim.log.levels.ERROR)
    return nil
  end
  local config = client_config(root, argv)
  if vim.lsp.start then
    M.last_cmd = argv
    -- 0.8's vim.lsp.start attaches the current buffer (the `bufnr` option came in 0.9).
    local id
    vim.api.nvim_buf_call(bufnr, function()
      id = vim.lsp.start(config, { bufnr = bufnr })
    end)
    return id
  end
  local id = clients_by_root[root]
  if id == nil or vim.lsp.client_is_stopped(id) then
    M.last_cmd = argv
    id = vim.lsp.start_client(config)
    clients_by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

local function start_existing_buffers()
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if
      vim.api.nvim_buf_is_loaded(bufnr)
      and vim.tbl_contains(M.options.filetypes, vim.bo[bufnr].filetype)
    then
      M.start(bufnr)
    end
  end
end

-- ---- talking to the server -----------------------------------------------------------------

--- The running hsir clients: all, or those attached to `bufnr`.
function M.clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = 'hsir' })
  end
  local found = {}
  local all = bufnr and vim.lsp.buf_get_clients(bufnr) or vim.lsp.get_active_clients()
  for _, client in pairs(all) do
    if client.name == 'hsir' then
      table.insert(found, client)
    end
  end
  return found
end

--- The running hsir client of a buffer, or nil after telling the user why there is none.
function M.client_of(bufnr)
  local client = M.clients(bufnr)[1]
  if client == nil then
    notify(
      ('the language server is not running for this buffer (filetype `%s`); see :checkhealth hsir'):format(
        vim.bo[bufnr].filetype
      ),
      vim.log.levels.ERROR
    )
  end
  return client
end

-- client:request from 0.11 (the dot form is deprecated there), client.request before.
local function request(client, method, params, handler, bufnr)
  if has('0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function offers(client, command)
  local provider = client.server_capabilities and client.server_capabilities.executeCommandProvider
  return type(provider) == 'table' and vim.tbl_contains(provider.commands or {}, command)
end

-- Whether the server offers `command`; if not, says that `ex_command` is not available yet.
local function offered(client, command, ex_command, missing)
  if offers(client, command) then
    return true
  end
  local message = ':%s is not available yet: the server has no %s (it does not offer the `%s` command)'
  notify(message:format(ex_command, missing, command), vim.log.levels.WARN)
  return false
end

local function error_text(err)
  if type(err) == 'table' then
    return err.message or vim.inspect(err)
  end
  return tostring(err)
end

--- Calls `on_name(name or nil)` with the `handshake.func` under the cursor, as the server sees
--- it: the function its "Generate RTL for @f" code action names there.
function M.function_at_cursor(client, bufnr, on_name)
  local position = vim.lsp.util.make_position_params(0, client.offset_encoding).position
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = position, ['end'] = position },
    context = { diagnostics = {}, only = { 'source' } },
  }
  request(client, 'textDocument/codeAction', params, function(err, actions)
    if err == nil then
      for _, action in ipairs(actions or {}) do
        local command = action.command
        if type(command) == 'table' and command.command == GENERATE_RTL then
          local arguments = command.arguments and command.arguments[1]
          if type(arguments) == 'table' and type(arguments['function']) == 'string' then
            return on_name(arguments['function'])
          end
        end
      end
    end
    on_name(nil)
  end, bufnr)
end

-- Runs `command` with { uri, function } (and the fields of `extra`) for the function named (or
-- the one under the cursor) and calls `on_result(result, client, bufnr)`; errors go to
-- vim.notify.
local function run_command(command, function_name, on_result, extra)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client_of(bufnr)
  if not client then
    return
  end
  local function execute(name)
    local arguments = { uri = vim.uri_from_bufnr(bufnr), ['function'] = name }
    for key, value in pairs(extra or {}) do
      arguments[key] = value
    end
    local params = { command = command, arguments = { arguments } }
    request(client, 'workspace/executeCommand', params, function(err, result)
      if err then
        notify(error_text(err), vim.log.levels.ERROR)
        return
      end
      on_result(result, client, bufnr, name)
    end, bufnr)
  end
  if function_name and function_name ~= '' then
    execute((function_name:gsub('^@', '')))
  else
    M.function_at_cursor(client, bufnr, execute)
  end
end

local function open_file(path)
  local how = M.options.rtl_open
  if not how then
    return
  end
  local commands = { split = 'split', vsplit = 'vsplit', tabedit = 'tabedit', edit = 'edit' }
  vim.cmd((commands[how] or 'split') .. ' ' .. vim.fn.fnameescape(path))
  -- A buffer kept from an earlier generation shows the file as it is now.
  vim.cmd('silent! checktime')
end

local function tail(path)
  return vim.fn.fnamemodify(path, ':t')
end

--- :HsirGenerateRtl: writes Verilog for a function (by name, else the one under the cursor,
--- else the server's choice of top) and opens it.
function M.generate_rtl(function_name)
  run_command(GENERATE_RTL, function_name, function(result)
    if type(result) ~= 'table' or type(result.files) ~= 'table' then
      notify('Generate RTL: the server answered ' .. vim.inspect(result), vim.log.levels.ERROR)
      return
    end
    M.last_rtl = result
    local names = {}
    local verilog
    for _, file in ipairs(result.files) do
      table.insert(names, tail(file))
      if tail(file) == tostring(result.top) .. '.v' then
        verilog = file
      end
    end
    local lines = {
      ('wrote %d files for @%s to %s: %s'):format(
        #result.files,
        tostring(result.top),
        tostring(result.folder),
        table.concat(names, ', ')
      ),
    }
    local level = vim.log.levels.INFO
    for _, note in ipairs(result.notes or {}) do
      table.insert(lines, ('%s %s: %s'):format(note.severity or '', note.code or '', note.message or ''))
      if note.severity == 'error' or note.severity == 'warning' then
        level = vim.log.levels.WARN
      end
    end
    notify(table.concat(lines, '\n'), level)
    if verilog then
      open_file(verilog)
    end
  end)
end

-- The system's viewer for a file, as an argv to which the file is appended (Neovim before 0.10).
local function system_opener()
  if vim.fn.has('mac') == 1 then
    return { 'open' }
  elseif vim.fn.has('win32') == 1 then
    return { 'cmd.exe', '/c', 'start', '' }
  end
  return { 'xdg-open' }
end

-- Shows the graph file as `graph_open` says.
local function show_graph(path)
  local how = M.options.graph_open
  if not how then
    return
  end
  if how == 'split' or how == 'vsplit' or how == 'tabedit' or how == 'edit' then
    vim.cmd(how .. ' ' .. vim.fn.fnameescape(path))
    return
  end
  if how == 'viewer' and vim.ui and vim.ui.open then
    local _, err = vim.ui.open(path)
    if err then
      notify(('cannot open %s: %s'):format(path, err), vim.log.levels.ERROR)
    end
    return
  end
  local argv = type(how) == 'table' and vim.deepcopy(how) or system_opener()
  if vim.fn.executable(argv[1]) ~= 1 then
    local message = 'cannot open %s: `%s` is not an executable (option graph_open)'
    notify(message:format(path, argv[1]), vim.log.levels.ERROR)
    return
  end
  table.insert(argv, path)
  local job = vim.fn.jobstart(argv, { detach = true })
  if job <= 0 then
    notify(('cannot open %s with `%s`'):format(path, table.concat(argv, ' ')), vim.log.levels.ERROR)
  end
end

-- The text of a graph answer and its extension: a string, or { svg = ... }, { dot = ... },
-- { format = 'svg'|'dot', text = ... }.
local function graph_text(result)
  if type(result) == 'string' then
    return result, result:match('^%s*<') and 'svg' or 'dot'
  end
  if type(result) ~= 'table' then
    return nil
  end
  if type(result.svg) == 'string' then
    return result.svg, 'svg'
  end
  if type(result.dot) == 'string' then
    return result.dot, 'dot'
  end
  if type(result.text) == 'string' then
    return result.text, result.format == 'svg' and 'svg' or 'dot'
  end
  return nil
end

--- :HsirGraph: the dataflow graph of the function under the cursor, if the server offers it.
function M.graph(function_name)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client_of(bufnr)
  if not client then
    return
  end
  if not offered(client, SHOW_GRAPH, 'HsirGraph', 'graph request') then
    return
  end
  run_command(SHOW_GRAPH, function_name, function(result, _, graph_bufnr, name)
    if type(result) == 'table' and type(result.path) == 'string' then
      return show_graph(result.path)
    end
    local text, extension = graph_text(result)
    if not text then
      local answer = vim.inspect(result)
      notify(('the server answered `%s` with %s'):format(SHOW_GRAPH, answer), vim.log.levels.ERROR)
      return
    end
    local file = vim.api.nvim_buf_get_name(graph_bufnr)
    local path = ('%s.%s.%s'):format(vim.fn.fnamemodify(file, ':r'), name or 'graph', extension)
    if vim.fn.writefile(vim.split(text, '\n', { plain = true }), path) ~= 0 then
      notify('cannot write ' .. path, vim.log.levels.ERROR)
      return
    end
    notify('wrote the graph to ' .. path)
    show_graph(path)
  end)
end

--- The algorithms :HsirPlaceBuffers takes.
M.algorithms = { 'fpga20', 'fpl22' }

--- The answer of the last `hsir.placeBuffers` ({ applied, cancelled, message, functions,
--- diagnostics }), for scripts.
M.last_placement = nil

--- :HsirPlaceBuffers [fpga20|fpl22] [function]: buffer placement (the algorithm of the
--- server's `buffers.algorithm` setting unless named) in a function (the one under the cursor
--- by default). The server writes the buffers into the buffer itself (workspace/applyEdit, for
--- the version it placed) and answers with a summary, shown here; when the buffer changed
--- meanwhile it applies nothing and says so itself.
function M.place_buffers(words)
  local algorithm, function_name
  for _, word in ipairs(vim.split(words or '', '%s+', { trimempty = true })) do
    if vim.tbl_contains(M.algorithms, word:lower()) then
      algorithm = word:lower()
    else
      function_name = word
    end
  end
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client_of(bufnr)
  if not client then
    return
  end
  if not offered(client, PLACE_BUFFERS, 'HsirPlaceBuffers', 'buffer placement') then
    return
  end
  run_command(PLACE_BUFFERS, function_name, function(result)
    M.last_placement = result
    if type(result) ~= 'table' then
      notify('Place buffers: the server answered ' .. vim.inspect(result), vim.log.levels.ERROR)
      return
    end
    if result.applied or result.cancelled then
      local level = vim.log.levels.INFO
      for _, d in ipairs(result.diagnostics or {}) do
        if d.severity == 'error' or d.severity == 'warning' then
          level = vim.log.levels.WARN
        end
      end
      notify(tostring(result.message), level)
    end
  end, { algorithm = algorithm })
end

--- The answer of the last `hsir.cosim` ({ verdict, message, cycles, interpreter, rtl,
--- mismatches }), for scripts.
M.last_cosim = nil

--- :HsirCosim [file.c]: co-simulates the function under the cursor against its C source (by
--- default the kernel's `.c` beside the file or in a sibling `c/` folder, which the server
--- finds). The server's progress (compiling C, the interpreter, the RTL simulation) shows on
--- the command line, and its verdict (PASS or FAIL, the RTL's cycles, the first mismatch of
--- each side) as a notification; every mismatch is listed in a warning here. `:HsirCancel`
--- stops it.
function M.cosim(c_file)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client_of(bufnr)
  if not client then
    return
  end
  if not offered(client, COSIM, 'HsirCosim', 'co-simulation') then
    return
  end
  local extra = {}
  if c_file and c_file ~= '' then
    extra.c = vim.fn.fnamemodify(vim.fn.expand(c_file), ':p')
  end
  run_command(COSIM, nil, function(result)
    M.last_cosim = result
    if type(result) ~= 'table' then
      notify('Co-simulate: the server answered ' .. vim.inspect(result), vim.log.levels.ERROR)
      return
    end
    local lines = {}
    for _, m in ipairs(result.mismatches or {}) do
      local at = m.index ~= nil and m.index ~= vim.NIL and ('%s[%d]'):format(m.output, m.index) or m.output
      table.insert(lines, ('%s: %s: got %s, C says %s'):format(m.side, at, m.got, m.expected))
    end
    if #lines > 0 then
      notify('mismatching elements:\n' .. table.concat(lines, '\n'), vim.log.levels.WARN)
    end
    if result.verdict == 'cancelled' then
      notify(tostring(result.message or 'co-simulation cancelled'))
    end
  end, extra)
end

--- :HsirCancel: cancels the server's work in progress (`window/workDoneProgress/cancel`): a
--- co-simulation stops its compiler or simulator, a placement keeps the text as it was.
function M.cancel()
  local cancelled = {}
  for key, running in pairs(M.progress) do
    local client = vim.lsp.get_client_by_id(running.client_id)
    if client then
      local params = { token = running.token }
      if has('0.11') then
        client:notify('window/workDoneProgress/cancel', params)
      else
        client.notify('window/workDoneProgress/cancel', params)
      end
      table.insert(cancelled, tostring(running.title))
    end
    M.progress[key] = nil
  end
  if #cancelled == 0 then
    notify('nothing to cancel: the server is not running a command')
  else
    notify('cancelling: ' .. table.concat(cancelled, ', '))
  end
end

-- ---- setup ---------------------------------------------------------------------------------

local function function_names()
  local names = {}
  for _, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
    local name = line:match('handshake%.func[%w%s]-@([%w_$.%-]+)')
    if name then
      table.insert(names, name)
    end
  end
  return names
end

local function define_commands()
  local complete = function(lead)
    return vim.tbl_filter(function(name)
      return name:sub(1, #lead) == lead
    end, function_names())
  end
  local complete_placement = function(lead)
    return vim.tbl_filter(function(name)
      return name:sub(1, #lead) == lead
    end, vim.list_extend(vim.deepcopy(M.algorithms), function_names()))
  end
  local commands = {
    HsirGenerateRtl = { M.generate_rtl, 'write Verilog for a function (default: the one under the cursor)' },
    HsirGraph = { M.graph, 'show the dataflow graph of a function' },
    HsirCosim = { M.cosim, 'co-simulate the function under the cursor against C: [file.c]', '?', 'file' },
    HsirCancel = { M.cancel, 'cancel the co-simulation or placement in progress', 0 },
    HsirPlaceBuffers = {
      M.place_buffers,
      'place buffers in a function: [fpga20|fpl22] [function]',
      '*',
      complete_placement,
    },
  }
  for name, command in pairs(commands) do
    vim.api.nvim_create_user_command(name, function(args)
      command[1](args.args)
    end, {
      nargs = command[3] or '?',
      -- A command without arguments may not complete any.
      complete = command[3] ~= 0 and (command[4] or complete) or nil,
      desc = 'hsir: ' .. command[2],
    })
  end
end

-- The type each option must have; nil when it may be left out.
local option_types = {
  cmd = { 'table', 'string' },
  settings = { 'table' },
  rtl_output_dir = { 'string', 'nil' },
  rtl_open = { 'string', 'boolean' },
  graph_open = { 'string', 'table', 'boolean' },
  filetypes = { 'table' },
  root_markers = { 'table' },
  on_attach = { 'function', 'nil' },
  capabilities = { 'table', 'nil' },
}

local function check_options(opts)
  for key, value in pairs(opts) do
    local allowed = option_types[key]
    if allowed == nil then
      local message = 'setup: there is no option `%s`; see :help hsir-options'
      notify(message:format(key), vim.log.levels.ERROR)
      return false
    end
    if not vim.tbl_contains(allowed, type(value)) then
      local message = ('setup: option `%s` must be a %s, not a %s'):format(
        key,
        table.concat(allowed, ' or '),
        type(value)
      )
      notify(message, vim.log.levels.ERROR)
      return false
    end
  end
  return true
end

-- ---- settings at run time ------------------------------------------------------------------

--- Changes options after `setup()` (`settings`, `rtl_output_dir`, `rtl_open`, `graph_open`) and
--- sends the new settings to the running servers. `settings` is replaced, not merged, so that a
--- key can be removed.
function M.update(opts)
  if not check_options(opts or {}) then
    return
  end
  for key, value in pairs(opts or {}) do
    M.options[key] = value
  end
  if has('0.11') and M.started_with == 'vim.lsp.enable' then
    -- Clients started from now on resolve the configuration again.
    vim.lsp.config('hsir', {})
  end
  local settings = client_settings()
  for _, client in ipairs(M.clients()) do
    -- 0.11 answers workspace/configuration from client.settings, earlier versions from
    -- client.config.settings.
    client.config.settings = settings
    client.settings = settings
    local payload = next(settings) and settings or { hsir = vim.empty_dict() }
    if has('0.11') then
      client:notify('workspace/didChangeConfiguration', { settings = payload })
    else
      client.notify('workspace/didChangeConfiguration', { settings = payload })
    end
  end
end

--- Sets the plugin up: options, the server for `filetypes`, and the commands.
function M.setup(opts)
  local options = vim.tbl_extend('force', vim.deepcopy(defaults), opts or {})
  if not check_options(options) then
    return
  end
  M.options = options
  reported = {}
  define_commands()
  if has('0.11') and vim.lsp.config and vim.lsp.enable then
    M.started_with = 'vim.lsp.enable'
    -- `lsp/hsir.lua` gives the configuration; this drops any copy resolved with older options
    -- and keeps what the user set with vim.lsp.config('hsir', ...).
    vim.lsp.config('hsir', {})
    vim.lsp.enable('hsir')
    return
  end
  M.started_with = vim.lsp.start and 'vim.lsp.start' or 'vim.lsp.start_client'
  local group = vim.api.nvim_create_augroup('hsir', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.options.filetypes,
    callback = function(args)
      M.start(args.buf)
    end,
    desc = 'hsir: start the language server',
  })
  if vim.v.vim_did_enter == 1 then
    start_existing_buffers()
  end
end

return M
