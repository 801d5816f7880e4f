-- SPDX-License-Identifier: Apache-2.0
-- Makes sessions the way browsers do: GET a tab page without a cookie (not the first
-- tab, whose default state stores nothing), so each request stores one session. Stops
-- after the count given first after "--"; writes every k-th visitor's "cookie csrf"
-- line to the file given second, k the third argument (a sample to replay later), and
-- then "done" to that file with ".done" appended (wrk's main thread sleeps out its -d
-- whatever the threads do, so bench/scale.py stops it when it sees that file).
local total, path, every
local made, sampled = 0, 0
local out

function init(args)
  total = tonumber(args[1])
  path = args[2]
  every = tonumber(args[3])
  out = assert(io.open(path, "w"))
end

function request()
  return wrk.format("GET", "/tabs/music")
end

function response(status, headers, body)
  made = made + 1
  if made % every == 0 then
    local cookie = headers["Set-Cookie"] or headers["set-cookie"]
    local csrf = body:match('name="csrf" value="([^"]+)"')
    if cookie and csrf then
      out:write(cookie:match("^([^;]+)") .. " " .. csrf .. "\n")
      out:flush()
      sampled = sampled + 1
    end
  end
  if made == total then
    out:close()
    local done = assert(io.open(path .. ".done", "w"))
    done:write("done\n")
    done:close()
    wrk.thread:stop()
  end
end
