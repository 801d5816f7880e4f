-- SPDX-License-Identifier: Apache-2.0
-- One visitor taps the tab bar from every connection at once: POST select, cycling
-- through four tabs so that every request changes the selection (and must be written).
-- The visitor is the first "cookie csrf" line of the file given after "--"; with a second
-- argument "return", each post also carries the return field a browser's form sends (the
-- page of the tab selected before).
local tabs = { "featured", "music", "movies", "tv" }
local cookie, csrf, with_return
local counter = 0

function init(args)
  local file = assert(io.open(args[1], "r"))
  cookie, csrf = file:read("*l"):match("^(%S+) (%S+)$")
  file:close()
  assert(cookie, "no visitor in " .. args[1])
  with_return = args[2] == "return"
end

function request()
  counter = counter + 1
  local body = "tab=" .. tabs[counter % #tabs + 1] .. "&csrf=" .. csrf
  if with_return then
    body = body .. "&return=/tabs/" .. tabs[(counter - 1) % #tabs + 1]
  end
  return wrk.format("POST", "/select", { ["Cookie"] = cookie, ["Content-Type"] = "application/x-www-form-urlencoded" }, body)
end
