-- The tables of the store's file, to tell a logbook store from another tool's database.
-- reads:
SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'
