-- SPDX-License-Identifier: Apache-2.0
-- Many visitors: cycles through the sessions listed in the file given after "--"
-- (one "cookie csrf" pair a line, made by bench.py by GETting a page per visitor).
-- Each visitor repeats five steps, so 80% of requests are GETs of tab pages and 20%
-- POST select: select tab T (a write), GET T's page twice (nothing to write), GET
-- another tab's page (a write: it becomes selected), and GET it again (no write).
-- Requests go to the visitors in turn, so consecutive requests are different visitors.
local tabs = { "featured", "music", "movies", "tv" }
-- Every request of one whole cycle (each visitor through five steps for each of the four
-- tabs), built once in init: building a request per call with wrk.format cost wrk more
-- CPU than serving it cost nginx (19 us a request, on the two cores the server shares).
local requests = {}
local period = 0
local counter = 0

local function build(visitors, index)
  local visitor = visitors[index % #visitors + 1]
  local round = math.floor(index / #visitors)
  local step = round % 5
  local tab = tabs[math.floor(round / 5) % #tabs + 1]
  local other = tabs[(math.floor(round / 5) + 2) % #tabs + 1]
  local headers = { ["Cookie"] = visitor.cookie }
  if step == 0 then
    headers["Content-Type"] = "application/x-www-form-urlencoded"
    return wrk.format("POST", "/select", headers, "tab=" .. tab .. "&csrf=" .. visitor.csrf)
  elseif step <= 2 then
    return wrk.format("GET", "/tabs/" .. tab, headers)
  else
    return wrk.format("GET", "/tabs/" .. other, headers)
  end
end

function init(args)
  local visitors = {}
  local file = assert(io.open(args[1], "r"))
  for line in file:lines() do
    local cookie, csrf = line:match("^(%S+) (%S+)$")
    if cookie then visitors[#visitors + 1] = { cookie = cookie, csrf = csrf } end
  end
  file:close()
  assert(#visitors > 0, "no visitors in " .. args[1])
  period = #visitors * 5 * #tabs
  for index = 0, period - 1 do requests[index + 1] = build(visitors, index) end
end

function request()
  local built = requests[counter % period + 1]
  counter = counter + 1
  return built
end
