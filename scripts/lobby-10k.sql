-- 10,000 open tables of two other nodes, faked into the leases of a paiju database: the
-- figures of docs/operations.md, "One lobby". Run it on a database a `paiju serve` node has
-- migrated (schema 4), then watch that node's ticks and time its lobby:
--
--   paiju serve --listen 127.0.0.1:18081 --advertise http://127.0.0.1:18081 \
--       --db postgres://paiju@127.0.0.1:5432/lobby10k &      # RUST_LOG=server::cluster=debug
--   psql -h 127.0.0.1 -U paiju lobby10k -f scripts/lobby-10k.sql
--   curl -s -o /dev/null -w '%{time_total} s %{size_download} B\n' http://127.0.0.1:18081/api/tables
--
-- The leases last an hour: stop the node before, or it tries to take tables that have no log.
-- A tick with 500 changed rows:
--   UPDATE leases SET listed = nextval('listing_version')
--   WHERE table_id IN (SELECT table_id FROM leases WHERE owner LIKE 'ghost%' LIMIT 500);
INSERT INTO tables (id, game, ruleset, options, deal_algorithm, seed, seed_commitment, board, fixed, created_ms, state)
SELECT 'g' || lpad(i::text, 5, '0'), 'shengji', 'fujian-2024', '{}', 'paiju-deal-1', repeat('00',32), md5(i::text) || md5(i::text), 1, '{}', 0, 'waiting'
FROM generate_series(1, 10000) i;
INSERT INTO leases (table_id, owner, address, expires_at, summary, listed)
SELECT 'g' || lpad(i::text, 5, '0'), 'ghost' || (i % 2), 'http://10.9.9.' || (i % 2) || ':8080', now() + interval '1 hour',
  json_build_object('created_ms', 0, 'item', json_build_object('id', 'g' || lpad(i::text, 5, '0'), 'game','shengji','ruleset','fujian-2024','board',1,'state','waiting',
   'seats', json_build_array(json_build_object('seat',0,'name','王阿姨','bot',false,'connected',true,'auto',false), json_build_object('seat',1,'name',null,'bot',true,'connected',false,'auto',false), json_build_object('seat',2,'name','李叔叔','bot',false,'connected',true,'auto',false), json_build_object('seat',3,'name',null,'bot',true,'connected',false,'auto',false)),
   'spectators',0,'seq',37,'seed_commitment', md5(i::text) || md5(i::text),'deal_algorithm','paiju-deal-1','bot_level','club'))::text,
  nextval('listing_version')
FROM generate_series(1, 10000) i;
