//! The real games, by name, for the command line (`paiju load`).

pub async fn load(opts: bots::load::LoadOptions) -> Result<bots::load::LoadReport, String> {
    Err(format!("the {} engine is not in this build yet", opts.game))
}
