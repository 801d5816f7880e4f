-- SPDX-License-Identifier: Apache-2.0
-- One visitor taps the tab bar from every connection at once: POST select, cycling
-- through four tabs so that every request changes the selection (and must be written).
-- The visitor is the first "cookie csrf" line of the file given after "--"; with a second
-- argument "return", each post also carries the return field a browser's form sends (the
-- page of the tab selected before).
local tabs = { "featured", "music", "movies", "tv" }
-- The four posts, built once in init (a request built per call costs wrk more CPU than
-- the server spends on it, on the cores they share).
local requests = {}
local counter = 0

function init(args)
  local file = assert(io.open(args[1], "r"))
  local cookie, csrf = file:read("*l"):match("^(%S+) (%S+)$")
  file:close()
  assert(cookie, "no visitor in " .. args[1])
  local with_return = args[2] == "return"
  local headers = { ["Cookie"] = cookie, ["Content-Type"] = "application/x-www-form-urlencoded" }
  -- Post number n is requests[n % 4 + 1]: it selects that tab, coming from the one before.
  for index = 1, #tabs do
    local body = "tab=" .. tabs[index] .. "&csrf=" .. csrf
    if with_return then
      body = body .. "&return=/tabs/" .. tabs[(index - 2) % #tabs + 1]
    end
    requests[index] = wrk.format("POST", "/select", headers, body)
  end
end

function request()
  counter = counter + 1
  return requests[counter % #tabs + 1]
end
