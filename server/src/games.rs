//! The real games, by name, for the command line (`paiju load`).

pub async fn load(opts: bots::load::LoadOptions) -> Result<bots::load::LoadReport, String> {
    match opts.game.as_str() {
        "shengji" => bots::load::run::<rules::shengji::Board>(opts).await,
        "gouji" => bots::load::run::<rules::gouji::Game>(opts).await,
        other => Err(format!("unknown game {other:?}")),
    }
}
